package gpt2

import (
	"context"
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2/nn"
	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// grads returns every parameter's gradient, in Params' order.
func (m *Model) grads() ([]*ops.Tensor, error) {
	gs := make([]*ops.Tensor, len(m.Params))
	for i, p := range m.Params {
		if gs[i] = p.T.Grad(); gs[i] == nil {
			return nil, fmt.Errorf("gpt2: %s has no gradient: was Backward run?", p.Name)
		}
	}
	return gs, nil
}

// clip returns the global gradient norm and, when Clip > 0, scales the
// gradients in place so that it is at most Clip
// (torch.nn.utils.clip_grad_norm_).
func (tr *Trainer) clip(ctx context.Context) (float64, error) {
	gs, err := tr.Model.grads()
	if err != nil {
		return 0, err
	}
	if tr.Hyper.Clip > 0 {
		return nn.ClipGradNorm(ctx, gs, tr.Hyper.Clip)
	}
	return nn.GradNorm(ctx, gs)
}

// update applies AdamW step tr.Step+1 with learning rate lr to every
// parameter in place: weight decay on the 2-D weights (Param.Decay), none
// on biases and layer norms (two parameter groups, as torch's).
func (tr *Trainer) update(ctx context.Context, lr float64) error {
	m, h := tr.Model, tr.Hyper
	if tr.m == nil {
		for _, p := range m.Params {
			mz, err := nn.ZerosLike(ctx, p.T)
			if err != nil {
				return err
			}
			vz, err := nn.ZerosLike(ctx, p.T)
			if err != nil {
				return err
			}
			tr.m, tr.v = append(tr.m, mz), append(tr.v, vz)
		}
	}
	gs, err := m.grads()
	if err != nil {
		return err
	}
	for _, decay := range []bool{true, false} {
		var ps, g, mm, vv []*ops.Tensor
		for i, p := range m.Params {
			if p.Decay == decay {
				ps, g, mm, vv = append(ps, p.T), append(g, gs[i]), append(mm, tr.m[i]), append(vv, tr.v[i])
			}
		}
		o := nn.AdamW{LR: lr, Beta1: h.Beta1, Beta2: h.Beta2, Eps: h.Eps}
		if decay {
			o.WeightDecay = h.WeightDecay
		}
		if err := o.Step(ctx, ps, g, mm, vv, tr.Step+1); err != nil {
			return fmt.Errorf("gpt2: AdamW step %d: %w", tr.Step+1, err)
		}
	}
	return nil
}
