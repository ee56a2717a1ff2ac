package optest

import (
	"context"
	"fmt"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// Run checks the op of s as the package documentation says, each group of
// checks a subtest of t: cpu, dtypes, grad and errors on the CPU, then the
// same, stream and capture on the first CUDA device (cuda; skipped without
// one).
func Run(t *testing.T, s Spec) {
	t.Helper()
	s, err := s.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	gpu := ops.CUDA(0)
	ok, why := cuda.Available()
	t.Run("cpu", func(t *testing.T) { s.checkValues(ctx, ops.CPU, reporter(t)) })
	t.Run("dtypes", func(t *testing.T) { s.checkUnsupported(ctx, ops.CPU, reporter(t)) })
	if !s.NoGrad {
		t.Run("grad", func(t *testing.T) { s.checkGrad(ctx, ops.CPU, reporter(t)) })
	}
	t.Run("errors", func(t *testing.T) {
		var other *ops.Device
		if ok && !s.CPUOnly {
			other = &gpu
		}
		s.checkErrors(ctx, ops.CPU, other, reporter(t))
	})
	t.Run("cuda", func(t *testing.T) {
		if s.CPUOnly {
			t.Skip("Spec.CPUOnly: the GPU checks are skipped")
		}
		if !ok {
			t.Skipf("no CUDA device, the GPU checks are skipped: %v", why)
		}
		t.Run("values", func(t *testing.T) { s.checkValues(ctx, gpu, reporter(t)) })
		t.Run("dtypes", func(t *testing.T) { s.checkUnsupported(ctx, gpu, reporter(t)) })
		if !s.NoGrad {
			t.Run("grad", func(t *testing.T) { s.checkGrad(ctx, gpu, reporter(t)) })
		}
		t.Run("errors", func(t *testing.T) { s.checkErrors(ctx, gpu, &ops.CPU, reporter(t)) })
		t.Run("stream", func(t *testing.T) { s.checkStream(ctx, gpu, reporter(t)) })
		t.Run("capture", func(t *testing.T) { s.checkCapture(ctx, gpu, reporter(t), t.Skip) })
	})
}

// checkStream runs the op (and its backward) on a new stream of dev on
// inputs made on the default stream (in float64, or the op's first dtype
// without float64), checks that the output belongs to that
// stream and compares the output and the gradients with the CPU's.
func (s Spec) checkStream(ctx context.Context, dev ops.Device, report func(format string, a ...any)) {
	st, err := cuda.NewStream(dev.Index)
	if err != nil {
		report("%s: %v", s.Name, err)
		return
	}
	defer st.Close()
	sctx := cuda.WithStream(ctx, st)
	layouts := make([]Layout, len(s.GradShapes)) // views made on the default stream
	for j, sh := range s.GradShapes {
		layouts[j] = Strided
		if len(sh) >= 2 {
			layouts[j] = Transposed
		}
	}
	dtype := s.streamDType()
	out, isInput, got, gotG, err := s.run(sctx, ctx, dev, layouts, dtype)
	if err != nil {
		report("%s on %v: %v", s.Name, st, err)
		return
	}
	if os, err := cuda.StreamOf(out); !isInput && (err != nil || os != st) {
		report("%s called with a context on %v: the output belongs to %v (%v)", s.Name, st, os, err)
	}
	_, _, want, wantG, err := s.run(ctx, ctx, ops.CPU, layouts, dtype)
	if err != nil {
		report("%s on the CPU: %v", s.Name, err)
		return
	}
	rtol, atol := s.Tol(dtype)
	if err := Compare(got, want, rtol, atol); err != nil {
		report("%s on %v against the CPU: output: %v", s.Name, st, err)
	}
	for j := range wantG {
		if (gotG[j] == nil) != (wantG[j] == nil) {
			report("%s on %v: input %d has a gradient on one device only (GPU %v, CPU %v)", s.Name, st, j, gotG[j] != nil, wantG[j] != nil)
			continue
		}
		if err := Compare(gotG[j], wantG[j], rtol, atol); err != nil {
			report("%s on %v against the CPU: the gradient of input %d: %v", s.Name, st, j, err)
		}
	}
}

// Benchmark times the op of s on inputs of the given shapes in float32 on
// the CPU and, where there is one, the first CUDA device (sub-benchmarks
// "cpu" and "cuda:0"), with b.SetBytes the bytes of the inputs and the
// output; the GPU's work is waited for before the timer stops.
func Benchmark(b *testing.B, s Spec, shapes ...[]int) {
	b.Helper()
	ctx := context.Background()
	devs := []ops.Device{ops.CPU}
	if ok, _ := cuda.Available(); ok {
		devs = append(devs, ops.CUDA(0))
	}
	for _, dev := range devs {
		b.Run(dev.String(), func(b *testing.B) {
			in := make([]*ops.Tensor, len(shapes))
			bytes := 0
			for j, sh := range shapes {
				x, err := ops.Rand(uint64(j+1), ops.Float32, sh...)
				if err == nil {
					x, err = x.To(ctx, dev)
				}
				if err != nil {
					b.Fatal(err)
				}
				in[j], bytes = x, bytes+4*x.Numel()
			}
			y, err := s.call(ctx, in)
			if err != nil {
				b.Fatalf("%s on %v: %v", s.Name, dev, err)
			}
			b.SetBytes(int64(bytes + 4*y.Numel()))
			y.Free()
			if err := ops.Synchronize(ctx, dev); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				y, err := s.call(ctx, in)
				if err != nil {
					b.Fatal(fmt.Errorf("%s on %v: %w", s.Name, dev, err))
				}
				y.Free()
			}
			if err := ops.Synchronize(ctx, dev); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// maxFailures is the number of failures a group of checks reports before
// it stops.
const maxFailures = 10

// reporter returns t.Errorf until it has reported maxFailures failures,
// then stops the test.
func reporter(t *testing.T) func(format string, a ...any) {
	n := 0
	return func(format string, a ...any) {
		t.Helper()
		n++
		t.Errorf(format, a...)
		if n == maxFailures {
			t.Fatalf("optest: %d failures, the other checks of %s are skipped", n, t.Name())
		}
	}
}
