package nn

import (
	"context"
	"math"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// layerNormOp normalizes x over its last dimension; its backward is layerNormBackwardOp.
var layerNormOp = ops.RegisterOp(ops.OpDef{
	Name: "nn.LayerNorm",
	Args: []ops.Arg{{Name: "x", Kind: ops.KindTensor}, {Name: "weight", Kind: ops.KindTensor},
		{Name: "bias", Kind: ops.KindTensor}, {Name: "eps", Kind: ops.KindFloat}},
	Shape: func(in []*ops.Tensor, args ops.Args) ([]int, error) {
		if err := checkLayerNorm("", in[0], in[1], in[2], args.Floats[0]); err != nil {
			return nil, err
		}
		return in[0].Shape(), nil
	},
	Backward: func(ctx context.Context, g *ops.Tensor, in []*ops.Tensor, args ops.Args, _ *ops.Tensor) ([]*ops.Tensor, error) {
		return layerNormBackward(ctx, g, in[0], in[1], args.Floats[0])
	},
	CPU: ops.ContiguousInputs(layerNormCPU),
})

// checkLayerNorm checks LayerNorm's arguments (x [..., C], weight [C], bias [C], eps >= 0).
func checkLayerNorm(op string, x, w, b *ops.Tensor, eps float64) error {
	if err := checkFloat(op, "x", x); err != nil {
		return err
	}
	if x.Dim() < 1 {
		return shapeErr(op, "x", "x has shape %v, expected at least one dimension [..., C]", x.Shape())
	}
	c := x.Shape()[x.Dim()-1]
	if w.Dim() != 1 || w.Shape()[0] != c {
		return shapeErr(op, "weight", "weight has shape %v, expected [%d] (x's last dimension)", w.Shape(), c)
	}
	if b != nil && (b.Dim() != 1 || b.Shape()[0] != c) {
		return shapeErr(op, "bias", "bias has shape %v, expected [%d] (x's last dimension)", b.Shape(), c)
	}
	if !(eps >= 0) || math.IsInf(eps, 0) {
		return argErr(op, "eps", ops.ErrArg, "eps is %v, expected a finite value >= 0", eps)
	}
	return nil
}

// LayerNorm returns (x - mean)/√(var + eps)·weight + bias over x's last dimension, the biased
// variance, like torch.nn.functional.layer_norm (see the package doc).
func LayerNorm(ctx context.Context, x, weight, bias *ops.Tensor, eps float64) (*ops.Tensor, error) {
	return layerNormOp.Call(ctx, []*ops.Tensor{x, weight, bias}, ops.Args{Floats: []float64{eps}})
}

// rowStats returns the mean and 1/√(var + eps) of row r of x (C elements).
func rowStats(x vec, r, c int, eps float64) (mean, rstd float64) {
	for i := range c {
		mean += x.at(r*c + i)
	}
	mean /= float64(c)
	var v float64
	for i := range c {
		d := x.at(r*c+i) - mean
		v += d * d
	}
	return mean, 1 / math.Sqrt(v/float64(c)+eps)
}

func layerNormCPU(_ context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	x, w, b, y := hostVec(in[0]), hostVec(in[1]), hostVec(in[2]), hostVec(out)
	c := in[1].Numel()
	if c == 0 {
		return nil
	}
	eps := args.Floats[0]
	for r := range out.Numel() / c {
		mean, rstd := rowStats(x, r, c, eps)
		for i := range c {
			y.set(r*c+i, (x.at(r*c+i)-mean)*rstd*w.at(i)+b.at(i))
		}
	}
	return nil
}

// layerNormBackwardOp computes LayerNorm's gradients dx, dweight and dbias from gradOut, x and
// weight (its argument eps); it is not differentiable.
var layerNormBackwardOp = ops.RegisterMultiOp("nn.LayerNormBackward", layerNormBackwardCPU)

func layerNormBackward(ctx context.Context, g, x, w *ops.Tensor, eps float64) ([]*ops.Tensor, error) {
	outs, err := layerNormBackwardOp.Call(ctx, "", []*ops.Tensor{g, x, w}, func(in []*ops.Tensor, grad bool) ([]ops.Output, any, ops.FuncBackward, error) {
		const op = "nn.LayerNormBackward"
		if err := checkLayerNorm(op, in[1], in[2], nil, eps); err != nil {
			return nil, nil, nil, err
		}
		for i, name := range []string{"gradOut", "weight"} {
			if err := checkSame(op, name, in[2*i], "x", in[1]); err != nil {
				return nil, nil, nil, err
			}
		}
		if !slices.Equal(in[0].Shape(), in[1].Shape()) {
			return nil, nil, nil, shapeErr(op, "gradOut", "gradOut has shape %v, expected %v (x's)", in[0].Shape(), in[1].Shape())
		}
		if grad {
			return nil, nil, nil, argErr(op, "", ops.ErrGrad, "the backward of LayerNorm is not differentiable")
		}
		d := in[1].DType()
		return []ops.Output{{Shape: in[1].Shape(), DType: d}, {Shape: in[2].Shape(), DType: d}, {Shape: in[2].Shape(), DType: d}}, eps, nil, nil
	})
	if err != nil {
		return nil, err
	}
	return outs, nil
}

func layerNormBackwardCPU(ctx context.Context, outs, in []*ops.Tensor, attr any) error {
	c, release, err := contiguous(ctx, in)
	if err != nil {
		return err
	}
	defer release()
	eps := attr.(float64)
	g, x, w := hostVec(c[0]), hostVec(c[1]), hostVec(c[2])
	dx, dw, db := hostVec(outs[0]), hostVec(outs[1]), hostVec(outs[2])
	C := c[2].Numel()
	sw, sb := make([]float64, C), make([]float64, C)
	if C > 0 {
		xhat, dxhat := make([]float64, C), make([]float64, C)
		for r := range c[1].Numel() / C {
			mean, rstd := rowStats(x, r, C, eps)
			var m1, m2 float64
			for i := range C {
				gi := g.at(r*C + i)
				xhat[i] = (x.at(r*C+i) - mean) * rstd
				dxhat[i] = gi * w.at(i)
				m1 += dxhat[i]
				m2 += dxhat[i] * xhat[i]
				sw[i] += gi * xhat[i]
				sb[i] += gi
			}
			m1 /= float64(C)
			m2 /= float64(C)
			for i := range C {
				dx.set(r*C+i, rstd*(dxhat[i]-m1-xhat[i]*m2))
			}
		}
	}
	for i := range C {
		dw.set(i, sw[i])
		db.set(i, sb[i])
	}
	return nil
}
