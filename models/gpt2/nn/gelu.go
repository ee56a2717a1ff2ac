package nn

import (
	"context"
	"math"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// geluOp is GELU, tanh approximation; its backward is geluBackwardOp.
var geluOp = ops.RegisterOp(ops.OpDef{
	Name: "nn.GELU",
	Args: []ops.Arg{{Name: "x", Kind: ops.KindTensor}},
	Shape: func(in []*ops.Tensor, _ ops.Args) ([]int, error) {
		if err := checkFloat("", "x", in[0]); err != nil {
			return nil, err
		}
		return in[0].Shape(), nil
	},
	Backward: func(ctx context.Context, g *ops.Tensor, in []*ops.Tensor, _ ops.Args, _ *ops.Tensor) ([]*ops.Tensor, error) {
		gx, err := geluBackwardOp.Call(ctx, []*ops.Tensor{g, in[0]}, ops.Args{})
		return []*ops.Tensor{gx}, err
	},
	CPU: ops.ContiguousInputs(func(_ context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
		x, y := hostVec(in[0]), hostVec(out)
		for i := range out.Numel() {
			y.set(i, gelu(x.at(i)))
		}
		return nil
	}),
})

// geluBackwardOp is g·GELU'(x); it is not differentiable.
var geluBackwardOp = ops.RegisterOp(ops.OpDef{
	Name: "nn.GELUBackward",
	Args: []ops.Arg{{Name: "gradOut", Kind: ops.KindTensor}, {Name: "x", Kind: ops.KindTensor}},
	Shape: func(in []*ops.Tensor, _ ops.Args) ([]int, error) {
		if err := checkFloat("", "x", in[1]); err != nil {
			return nil, err
		}
		if !slices.Equal(in[0].Shape(), in[1].Shape()) {
			return nil, shapeErr("", "gradOut", "gradOut has shape %v, expected %v (x's)", in[0].Shape(), in[1].Shape())
		}
		return in[1].Shape(), nil
	},
	CPU: ops.ContiguousInputs(func(_ context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
		g, x, y := hostVec(in[0]), hostVec(in[1]), hostVec(out)
		for i := range out.Numel() {
			y.set(i, g.at(i)*geluGrad(x.at(i)))
		}
		return nil
	}),
})

// GELU returns 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) elementwise (see the package doc).
func GELU(ctx context.Context, x *ops.Tensor) (*ops.Tensor, error) {
	return geluOp.Call(ctx, []*ops.Tensor{x}, ops.Args{})
}

// geluC is √(2/π).
var geluC = math.Sqrt(2 / math.Pi)

func gelu(x float64) float64 {
	return 0.5 * x * (1 + math.Tanh(geluC*(x+0.044715*x*x*x)))
}

func geluGrad(x float64) float64 {
	t := math.Tanh(geluC * (x + 0.044715*x*x*x))
	return 0.5*(1+t) + 0.5*x*(1-t*t)*geluC*(1+3*0.044715*x*x)
}
