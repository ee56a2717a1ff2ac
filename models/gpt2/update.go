package gpt2

import (
	"context"
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2/nn"
	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// update applies one AdamW step with learning rate lr to every parameter,
// its gradient scaled by gscale (the clipping factor) first.
func (tr *Trainer) update(ctx context.Context, lr, gscale float64) error {
	m, h := tr.Model, tr.Hyper
	if tr.m == nil {
		for _, p := range m.Params {
			mz, err := zerosLike(ctx, p.T)
			if err != nil {
				return err
			}
			vz, err := zerosLike(ctx, p.T)
			if err != nil {
				return err
			}
			tr.m, tr.v = append(tr.m, mz), append(tr.v, vz)
		}
	}
	for i, p := range m.Params {
		g := p.T.Grad()
		if g == nil {
			return fmt.Errorf("gpt2: %s has no gradient: was Backward run?", p.Name)
		}
		wd := 0.0
		if p.Decay {
			wd = h.WeightDecay
		}
		np, nm, nv, err := nn.AdamW(ctx, p.T.Detach(), g, tr.m[i], tr.v[i], tr.Step+1, lr, h.Beta1, h.Beta2, h.Eps, wd, gscale)
		if err != nil {
			return fmt.Errorf("gpt2: AdamW on %s: %w", p.Name, err)
		}
		if err := np.SetRequiresGrad(true); err != nil {
			return err
		}
		_ = p.T.Free()
		_ = tr.m[i].Free()
		_ = tr.v[i].Free()
		p.T, tr.m[i], tr.v[i] = np, nm, nv
	}
	return nil
}

func zerosLike(ctx context.Context, t *ops.Tensor) (*ops.Tensor, error) {
	z, err := ops.Zeros(t.DType(), t.Shape()...)
	if err != nil || t.Device() == ops.CPU {
		return z, err
	}
	return z.To(ctx, t.Device())
}
