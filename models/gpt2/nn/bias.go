package nn

import (
	"context"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// biasAddOp is x + bias broadcast over x's leading dimensions.
var biasAddOp = ops.RegisterOp(ops.OpDef{
	Name: "nn.BiasAdd",
	Args: []ops.Arg{{Name: "x", Kind: ops.KindTensor}, {Name: "bias", Kind: ops.KindTensor}},
	Shape: func(in []*ops.Tensor, _ ops.Args) ([]int, error) {
		x, b := in[0], in[1]
		if err := checkFloat("", "x", x); err != nil {
			return nil, err
		}
		if x.Dim() < 1 {
			return nil, shapeErr("", "x", "x has shape %v, expected at least one dimension [..., N]", x.Shape())
		}
		if n := x.Shape()[x.Dim()-1]; b.Dim() != 1 || b.Shape()[0] != n {
			return nil, shapeErr("", "bias", "bias has shape %v, expected [%d] (x's last dimension)", b.Shape(), n)
		}
		return x.Shape(), nil
	},
	Backward: func(ctx context.Context, g *ops.Tensor, _ []*ops.Tensor, _ ops.Args, _ *ops.Tensor) ([]*ops.Tensor, error) {
		gb, err := biasGradOp.Call(ctx, []*ops.Tensor{g}, ops.Args{})
		return []*ops.Tensor{g, gb}, err
	},
	CPU: ops.ContiguousInputs(func(_ context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
		x, b, y := hostVec(in[0]), hostVec(in[1]), hostVec(out)
		n := in[1].Numel()
		for i := range out.Numel() {
			y.set(i, x.at(i)+b.at(i%n))
		}
		return nil
	}),
})

// biasGradOp sums gradOut [..., N] over its leading dimensions into [N]: the gradient of
// BiasAdd's bias. It is not differentiable.
var biasGradOp = ops.RegisterOp(ops.OpDef{
	Name: "nn.BiasGrad",
	Args: []ops.Arg{{Name: "gradOut", Kind: ops.KindTensor}},
	Shape: func(in []*ops.Tensor, _ ops.Args) ([]int, error) {
		g := in[0]
		if err := checkFloat("", "gradOut", g); err != nil {
			return nil, err
		}
		if g.Dim() < 1 {
			return nil, shapeErr("", "gradOut", "gradOut has shape %v, expected at least one dimension", g.Shape())
		}
		return []int{g.Shape()[g.Dim()-1]}, nil
	},
	CPU: ops.ContiguousInputs(func(_ context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
		g, y := hostVec(in[0]), hostVec(out)
		n := out.Numel()
		sum := make([]float64, n)
		for i := range in[0].Numel() {
			sum[i%n] += g.at(i)
		}
		for j, s := range sum {
			y.set(j, s)
		}
		return nil
	}),
})

// BiasAdd returns x [..., N] + bias [N], broadcast over x's leading dimensions; the gradient of
// bias is gradOut summed over them.
func BiasAdd(ctx context.Context, x, bias *ops.Tensor) (*ops.Tensor, error) {
	return biasAddOp.Call(ctx, []*ops.Tensor{x, bias}, ops.Args{})
}
