package optest

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

// checkCapture checks that the op's kernels run on the stream its context
// chooses: it captures the op into a CUDA graph on a stream of its own
// (cuda.Capture), gives the inputs new values in place and replays the
// graph, whose output must then be Ref of the new values. A kernel launched
// on another stream than cuda.Launch.Stream (a .cu launcher that uses the
// legacy default stream, say) runs once during the capture and is not in
// the graph, so the replay leaves the output Ref of the old values. An op
// that cannot be captured (cuda.ErrNotCapturable) is skipped with the
// reason.
func (s Spec) checkCapture(ctx context.Context, dev ops.Device, report func(format string, a ...any), skip func(args ...any)) {
	dtype := s.DTypes[0]
	if slices.Contains(s.DTypes, ops.Float32) {
		dtype = ops.Float32
	}
	c := largestCase(s.Shapes)
	shapes := s.Shapes[c]
	what := fmt.Sprintf("%s on %v, %v inputs of shapes %v, captured into a graph", s.Name, dev, dtype, shapes)
	before, err := s.caseData(ctx, c, shapes, dtype)
	if err != nil {
		report("%s: making inputs: %v", what, err)
		return
	}
	in, err := s.inputs(ctx, dtype, before, shapes, contiguous(len(shapes)), dev)
	if err != nil {
		report("%s: %v", what, err)
		return
	}
	st, err := cuda.NewStream(dev.Index)
	if err != nil {
		report("%s: %v", what, err)
		return
	}
	defer st.Close()
	var out *ops.Tensor
	g, err := cuda.Capture(ctx, st, func(ctx context.Context) error {
		var err error
		out, err = s.call(ctx, in)
		return err
	})
	if errors.Is(err, cuda.ErrNotCapturable) {
		skip(fmt.Sprintf("%s: the op cannot be captured, so its kernels' stream is not checked: %v", what, err))
		return
	}
	if err != nil {
		report("%s: %v", what, err)
		return
	}
	defer g.Close()
	after := make([][]float64, len(shapes))
	vals := make([]Values, len(shapes))
	for j, sh := range shapes {
		if _, ok := s.Index[j]; ok { // indices keep their values
			after[j] = before[j]
			vals[j] = Values{Shape: slices.Clone(sh), Data: after[j]}
			continue
		}
		if after[j], err = s.data(ctx, uint64(1000*c+j+500), sh, dtype); err == nil {
			err = overwrite(ctx, in[j], after[j])
		}
		if err != nil {
			report("%s: giving input %d new values: %v", what, j, err)
			return
		}
		vals[j] = Values{Shape: slices.Clone(sh), Data: after[j]}
	}
	if err := g.Replay(); err != nil {
		report("%s: replaying the graph: %v", what, err)
		return
	}
	got, err := out.Float64s()
	if err != nil {
		report("%s: reading the output after the replay: %v", what, err)
		return
	}
	rtol, atol := s.Tol(dtype)
	if err := Compare(got, s.Ref(vals).Data, rtol, atol); err != nil {
		report("%s: the replay on new input values against Ref: %v (a kernel that ignores cuda.Launch.Stream, such as one launched on the legacy default stream, ran during the capture instead of in the graph)", what, err)
	}
}

// largestCase returns the index of the case with the most input elements
// (the last of equals).
func largestCase(cases [][][]int) int {
	best, most := 0, -1
	for i, shapes := range cases {
		n := 0
		for _, sh := range shapes {
			m := 1
			for _, d := range sh {
				m *= d
			}
			n += m
		}
		if n >= most {
			best, most = i, n
		}
	}
	return best
}

// overwrite copies values (exact in t's dtype) into the contiguous CUDA
// tensor t in place, on t's stream, through a pinned buffer.
func overwrite(ctx context.Context, t *ops.Tensor, values []float64) error {
	if len(values) == 0 {
		return nil
	}
	b, err := cuda.NewPinned(t.DType(), len(values))
	if err != nil {
		return err
	}
	for i, v := range values {
		switch t.DType() {
		case ops.Float32:
			b.Float32()[i] = float32(v)
		case ops.Float64:
			b.Float64()[i] = v
		case ops.Float16:
			b.Float16()[i] = half.Float16From(float32(v))
		case ops.BFloat16:
			b.BFloat16()[i] = half.BFloat16From(float32(v))
		default:
			b.Close()
			return fmt.Errorf("optest: overwrite: dtype %v: %w", t.DType(), ops.ErrDType)
		}
	}
	if err := cuda.CopyToDeviceAsync(ctx, t, b); err != nil {
		b.Close()
		return err
	}
	// Close waits for the copy.
	return b.Close()
}
