package gpt2

import (
	"context"
	"fmt"
	"math"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// Hyper are the optimisation hyperparameters.
//
// AdamW (decoupled weight decay, torch.optim.AdamW's update) applies
// WeightDecay to the 2-D weights only (the matmul weights and the
// embeddings), not to biases or layer-norm gains and biases, as GPT-2 and
// llm.c do. The learning rate rises linearly over Warmup steps to LR, then
// follows a cosine down to LR*MinLRFrac at step Steps. Gradients are
// clipped to a global L2 norm of Clip (0: no clipping).
type Hyper struct {
	LR, MinLRFrac     float64
	Warmup, Steps     int
	WeightDecay       float64
	Beta1, Beta2, Eps float64
	Clip              float64
}

// DefaultHyper is GPT-2 small's recipe as llm.c trains it (lr 6e-4, 10%
// floor, weight decay 0.1, betas 0.9/0.95, clip 1).
func DefaultHyper(steps int) Hyper {
	return Hyper{LR: 6e-4, MinLRFrac: 0.1, Warmup: min(700, steps/10), Steps: steps,
		WeightDecay: 0.1, Beta1: 0.9, Beta2: 0.95, Eps: 1e-8, Clip: 1}
}

// LRAt returns the learning rate of step (0-based).
func (h Hyper) LRAt(step int) float64 {
	if step < h.Warmup {
		return h.LR * float64(step+1) / float64(h.Warmup)
	}
	if step >= h.Steps || h.Steps <= h.Warmup {
		return h.LR * h.MinLRFrac
	}
	r := float64(step-h.Warmup) / float64(h.Steps-h.Warmup)
	lo := h.LR * h.MinLRFrac
	return lo + 0.5*(1+math.Cos(math.Pi*r))*(h.LR-lo)
}

// Trainer runs optimisation steps on a model: gradient accumulation over
// micro-batches, global-norm clipping, AdamW on the float32 master weights.
type Trainer struct {
	Model *Model
	Hyper Hyper
	DType ops.DType // compute dtype: Float32 or BFloat16
	// Step is the number of optimisation steps taken.
	Step int
	m, v []*ops.Tensor // AdamW moments, float32, one per parameter (nil before the first step)
}

// NewTrainer returns a trainer at step 0.
func NewTrainer(m *Model, h Hyper, dt ops.DType) (*Trainer, error) {
	if dt != ops.Float32 && dt != ops.BFloat16 {
		return nil, fmt.Errorf("gpt2: compute dtype %v: expected float32 or bfloat16", dt)
	}
	if h.Steps <= 0 || h.LR <= 0 {
		return nil, fmt.Errorf("gpt2: hyperparameters %+v: steps and lr must be positive", h)
	}
	return &Trainer{Model: m, Hyper: h, DType: dt}, nil
}

// StepResult is what one optimisation step measured.
type StepResult struct {
	Loss     float64 // mean over the micro-batches
	GradNorm float64 // before clipping
	LR       float64
}

// Batch returns the next micro-batch's inputs and targets (b*n ids each).
type Batch func() (inputs, targets []int32, err error)

// TrainStep takes one optimisation step over accum micro-batches of b x n
// tokens drawn from next.
func (tr *Trainer) TrainStep(ctx context.Context, next Batch, b, n, accum int) (StepResult, error) {
	if accum <= 0 {
		return StepResult{}, fmt.Errorf("gpt2: %d micro-batches: must be positive", accum)
	}
	m := tr.Model
	if err := m.ZeroGrad(); err != nil {
		return StepResult{}, err
	}
	var res StepResult
	for i := 0; i < accum; i++ {
		in, tgt, err := next()
		if err != nil {
			return StepResult{}, err
		}
		l, err := m.LossBackward(ctx, in, tgt, b, n, tr.DType, 1/float64(accum))
		if err != nil {
			return StepResult{}, fmt.Errorf("micro-batch %d: %w", i, err)
		}
		res.Loss += l / float64(accum)
	}
	norm, err := tr.clip(ctx)
	if err != nil {
		return StepResult{}, err
	}
	res.GradNorm = norm
	res.LR = tr.Hyper.LRAt(tr.Step)
	if err := tr.update(ctx, res.LR); err != nil {
		return StepResult{}, err
	}
	tr.Step++
	return res, nil
}
