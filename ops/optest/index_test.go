package optest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

// An op with an index input through the kit: rows of a table picked by int32 indices (a gather),
// with its backward a scatter-add; CPU kernels only.

var gatherOp = ops.RegisterMultiOp("OptestGather", gatherCPU(false))

// gatherLinearOp reads its indices linearly from their storage, as if contiguous: the kit must
// fail it (TestRunFailsBrokenOps, "indexstrides").
var gatherLinearOp = ops.RegisterMultiOp("OptestGatherLinear", gatherCPU(true))

var scatterOp = ops.RegisterMultiOp("OptestScatterAdd", func(_ context.Context, outs, in []*ops.Tensor, _ any) error {
	g, idx := in[0].Float64s, in[1]
	gv, err := g()
	if err != nil {
		return err
	}
	iv, err := idx.Int32s()
	if err != nil {
		return err
	}
	d := outs[0].Shape()[1]
	sum := make([]float64, outs[0].Numel())
	for r, i := range iv {
		for j := range d {
			sum[int(i)*d+j] += gv[r*d+j]
		}
	}
	return fill(outs[0], sum)
})

// fill stores v into the contiguous CPU tensor t of any float dtype.
func fill(t *ops.Tensor, v []float64) error {
	w, err := ops.FromFloat64(v, t.Shape()...)
	if err == nil {
		w, err = w.AsType(context.Background(), t.DType())
	}
	if err != nil {
		return err
	}
	return copyInto(t, w)
}

func gatherCPU(linear bool) ops.MultiKernel[any] {
	return func(_ context.Context, outs, in []*ops.Tensor, _ any) error {
		x, idx := in[0], in[1]
		xv, err := x.Float64s()
		if err != nil {
			return err
		}
		iv, err := idx.Int32s()
		if linear {
			iv = idx.Storage().(*ops.CPUStorage).Int32()[idx.Offset() : idx.Offset()+idx.Numel()]
		}
		if err != nil {
			return err
		}
		n, d := x.Shape()[0], x.Shape()[1]
		out := make([]float64, outs[0].Numel())
		for r, i := range iv {
			if i < 0 || int(i) >= n {
				return fmt.Errorf("index %d is outside [0, %d): %w", i, n, ops.ErrArg)
			}
			copy(out[r*d:(r+1)*d], xv[int(i)*d:(int(i)+1)*d])
		}
		return fill(outs[0], out)
	}
}

// gather calls op on x [n, d] and idx [k] (int32) -> [k, d].
func gather(op *ops.MultiOp[any]) func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
	return func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
		outs, err := op.Call(ctx, "", in, func(in []*ops.Tensor, grad bool) ([]ops.Output, any, ops.FuncBackward, error) {
			x, idx := in[0], in[1]
			if idx.DType() != ops.Int32 || x.DType() == ops.Int32 || x.DType() == ops.Float16 {
				return nil, nil, nil, fmt.Errorf("gather: x %v, idx %v: %w", x.DType(), idx.DType(), ops.ErrDType)
			}
			shape := []int{idx.Shape()[0], x.Shape()[1]}
			bw := func(ctx context.Context, g, in, _ []*ops.Tensor) ([]*ops.Tensor, error) {
				o, err := scatterOp.Call(ctx, "", []*ops.Tensor{g[0], in[1]}, func([]*ops.Tensor, bool) ([]ops.Output, any, ops.FuncBackward, error) {
					return []ops.Output{{Shape: in[0].Shape(), DType: in[0].DType()}}, nil, nil, nil
				})
				if err != nil {
					return nil, err
				}
				return []*ops.Tensor{o[0], nil}, nil
			}
			return []ops.Output{{Shape: shape, DType: x.DType()}}, nil, bw, nil
		})
		if err != nil {
			return nil, err
		}
		return outs[0], nil
	}
}

func gatherRef(in []optest.Values) optest.Values {
	x, idx := in[0], in[1]
	d := x.Shape[1]
	out := optest.Values{Shape: []int{len(idx.Data), d}}
	for _, i := range idx.Data {
		out.Data = append(out.Data, x.Data[int(i)*d:(int(i)+1)*d]...)
	}
	return out
}

var gatherSpec = optest.Spec{
	Name:       "Gather",
	Call:       gather(gatherOp),
	Ref:        gatherRef,
	Shapes:     [][][]int{{{5, 3}, {7}}, {{5, 1}, {0}}, {{6, 4}, {65}}},
	GradShapes: [][]int{{5, 3}, {4}},
	Index:      map[int]int{1: 5},
	DTypes:     []ops.DType{ops.Float32, ops.Float64, ops.BFloat16},
	CPUOnly:    true,
}

// TestIndexInput: the index input is int32 in every layout, not differentiated, and the float
// input's dtypes, gradient and errors are checked as usual.
func TestIndexInput(t *testing.T) { optest.Run(t, gatherSpec) }

func init() {
	s := gatherSpec
	s.Name, s.Call = "GatherLinear", gather(gatherLinearOp)
	broken["indexstrides"] = struct {
		spec optest.Spec
		want string
	}{s, "strided]: ops.OptestGatherLinear: cpu kernel: index -2147483648"}
}
