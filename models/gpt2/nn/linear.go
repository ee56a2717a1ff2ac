package nn

import (
	"context"
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// Linear returns x [..., In] · weightᵀ + bias: weight [Out, In] in torch.nn.Linear's layout,
// bias [Out] or nil, the result [..., Out]. It is ops.MatMul of x viewed as [N, In] with
// weight's transpose (a view, which cuBLASLt reads in place on a GPU), then BiasAdd; autograd
// gives dx = g·weight, dweight = gᵀ·x and dbias = g summed over the rows, from those ops'
// backwards. On a GPU float32 is IEEE (no TF32 unless cuda.SetAllowTF32) and bfloat16
// accumulates in float32.
func Linear(ctx context.Context, x, weight, bias *ops.Tensor) (*ops.Tensor, error) {
	const op = "nn.Linear"
	if ctx == nil {
		return nil, argErr(op, "ctx", ops.ErrArg, "context is nil (use context.Background())")
	}
	for _, a := range []struct {
		name string
		t    *ops.Tensor
	}{{"x", x}, {"weight", weight}} {
		if a.t == nil {
			return nil, argErr(op, a.name, ops.ErrNil, "%s is nil", a.name)
		}
	}
	if err := checkFloat(op, "x", x); err != nil {
		return nil, err
	}
	if err := checkSame(op, "weight", weight, "x", x); err != nil {
		return nil, err
	}
	if weight.Dim() != 2 {
		return nil, shapeErr(op, "weight", "weight has shape %v, expected [Out, In]", weight.Shape())
	}
	out, in := weight.Shape()[0], weight.Shape()[1]
	if x.Dim() < 1 || x.Shape()[x.Dim()-1] != in {
		return nil, shapeErr(op, "x", "x has shape %v, expected [..., %d] (weight's In)", x.Shape(), in)
	}
	if bias != nil {
		if err := checkSame(op, "bias", bias, "x", x); err != nil {
			return nil, err
		}
		if bias.Dim() != 1 || bias.Shape()[0] != out {
			return nil, shapeErr(op, "bias", "bias has shape %v, expected [%d] (weight's Out)", bias.Shape(), out)
		}
	}
	if x.Device() != weight.Device() {
		return nil, argErr(op, "weight", ops.ErrDevice, "weight is on %v, expected %v (x's device)", weight.Device(), x.Device())
	}
	if bias != nil && bias.Device() != x.Device() {
		return nil, argErr(op, "bias", ops.ErrDevice, "bias is on %v, expected %v (x's device)", bias.Device(), x.Device())
	}
	outShape := append(x.Shape()[:x.Dim()-1], out)
	xc, err := x.Contiguous(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	x2, err := xc.Reshape(numel(x.Shape()[:x.Dim()-1]), in)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	wt, err := weight.Transpose(0, 1)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	y, err := ops.MatMul(ctx, x2, wt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	if bias != nil {
		if y, err = BiasAdd(ctx, y, bias); err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
	}
	return y.Reshape(outShape...)
}

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}
