package nn

import (
	"context"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// embeddingOp is Embedding: inputs tokens, wte, wpe; one output. Its backward is
// embeddingBackwardOp.
var embeddingOp = ops.RegisterMultiOp("nn.Embedding", embeddingCPU)

// embeddingBackwardOp gives the gradients of wte and wpe from gradOut [B, T, C] and tokens
// (attr: embeddingDims); it is not differentiable.
var embeddingBackwardOp = ops.RegisterMultiOp("nn.EmbeddingBackward", embeddingBackwardCPU)

// embeddingDims are the sizes of one Embedding call.
type embeddingDims struct{ B, T, C, V, MaxT int }

// Embedding returns wte[tokens[b, t]] + wpe[t] for tokens [B, T] (ops.Int32), wte [V, C] and
// wpe [maxT, C]: [B, T, C] (see the package doc for tokens outside [0, V)).
func Embedding(ctx context.Context, tokens, wte, wpe *ops.Tensor) (*ops.Tensor, error) {
	const op = "nn.Embedding"
	outs, err := embeddingOp.Call(ctx, "", []*ops.Tensor{tokens, wte, wpe}, func(in []*ops.Tensor, grad bool) ([]ops.Output, any, ops.FuncBackward, error) {
		tok, wte, wpe := in[0], in[1], in[2]
		if err := checkInt32(op, "tokens", tok); err != nil {
			return nil, nil, nil, err
		}
		if err := checkFloat(op, "wte", wte); err != nil {
			return nil, nil, nil, err
		}
		if err := checkSame(op, "wpe", wpe, "wte", wte); err != nil {
			return nil, nil, nil, err
		}
		if tok.Dim() != 2 {
			return nil, nil, nil, shapeErr(op, "tokens", "tokens has shape %v, expected [B, T]", tok.Shape())
		}
		if wte.Dim() != 2 {
			return nil, nil, nil, shapeErr(op, "wte", "wte has shape %v, expected [V, C]", wte.Shape())
		}
		d := embeddingDims{B: tok.Shape()[0], T: tok.Shape()[1], V: wte.Shape()[0], C: wte.Shape()[1]}
		if wpe.Dim() != 2 || wpe.Shape()[1] != d.C {
			return nil, nil, nil, shapeErr(op, "wpe", "wpe has shape %v, expected [maxT, %d] (wte's C)", wpe.Shape(), d.C)
		}
		d.MaxT = wpe.Shape()[0]
		if d.T > d.MaxT {
			return nil, nil, nil, shapeErr(op, "tokens", "tokens has shape %v: %d positions, more than wpe's %d", tok.Shape(), d.T, d.MaxT)
		}
		outs := []ops.Output{{Shape: []int{d.B, d.T, d.C}, DType: wte.DType()}}
		var bw ops.FuncBackward
		if grad {
			bw = func(ctx context.Context, grads, in, _ []*ops.Tensor) ([]*ops.Tensor, error) {
				g, err := embeddingBackwardOp.Call(ctx, "", []*ops.Tensor{grads[0], in[0]}, func([]*ops.Tensor, bool) ([]ops.Output, any, ops.FuncBackward, error) {
					dt := grads[0].DType()
					return []ops.Output{{Shape: []int{d.V, d.C}, DType: dt}, {Shape: []int{d.MaxT, d.C}, DType: dt}}, d, nil, nil
				})
				if err != nil {
					return nil, err
				}
				return []*ops.Tensor{nil, g[0], g[1]}, nil
			}
		}
		return outs, d, bw, nil
	})
	if err != nil {
		return nil, err
	}
	return outs[0], nil
}

func embeddingCPU(ctx context.Context, outs, in []*ops.Tensor, attr any) error {
	d := attr.(embeddingDims)
	c, release, err := contiguous(ctx, in)
	if err != nil {
		return err
	}
	defer release()
	tok, wte, wpe, y := ops.HostView[int32](c[0]), hostVec(c[1]), hostVec(c[2]), hostVec(outs[0])
	for r, v := range tok {
		if v < 0 || int(v) >= d.V {
			return argErr("nn.Embedding", "tokens", ops.ErrArg, "tokens[%d, %d] is %d, outside the vocabulary [0, %d)", r/d.T, r%d.T, v, d.V)
		}
		t := r % d.T
		for i := range d.C {
			y.set(r*d.C+i, wte.at(int(v)*d.C+i)+wpe.at(t*d.C+i))
		}
	}
	return nil
}

func embeddingBackwardCPU(ctx context.Context, outs, in []*ops.Tensor, attr any) error {
	d := attr.(embeddingDims)
	c, release, err := contiguous(ctx, in)
	if err != nil {
		return err
	}
	defer release()
	g, tok := hostVec(c[0]), ops.HostView[int32](c[1])
	dwte, dwpe := make([]float64, d.V*d.C), make([]float64, d.MaxT*d.C)
	for r, v := range tok {
		t := r % d.T
		for i := range d.C {
			gi := g.at(r*d.C + i)
			if v >= 0 && int(v) < d.V {
				dwte[int(v)*d.C+i] += gi
			}
			dwpe[t*d.C+i] += gi
		}
	}
	storeAll(outs[0], dwte)
	storeAll(outs[1], dwpe)
	return nil
}
