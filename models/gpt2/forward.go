package gpt2

import (
	"context"
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2/nn"
	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// tape collects the first error of a sequence of ops and the tensors they
// made, so that a pass frees its activations as soon as it is done with
// them (device memory is too scarce to wait for the garbage collector).
type tape struct {
	ctx  context.Context
	err  error
	made []*ops.Tensor
	keep map[*ops.Tensor]bool // parameters: never freed
}

func (t *tape) do(what string, f func() (*ops.Tensor, error)) *ops.Tensor {
	if t.err != nil {
		return nil
	}
	y, err := f()
	if err != nil {
		t.err = fmt.Errorf("gpt2: %s: %w", what, err)
		return nil
	}
	if !t.keep[y] {
		t.made = append(t.made, y)
	}
	return y
}

// free frees every tensor the pass made (views included through their
// storage). Call it once the pass's results are read and Backward has run.
func (t *tape) free() {
	for _, x := range t.made {
		_ = x.Free()
	}
	t.made = nil
}

func newTape(ctx context.Context, m *Model) *tape {
	keep := make(map[*ops.Tensor]bool, len(m.Params))
	for _, p := range m.Params {
		keep[p.T] = true
	}
	return &tape{ctx: ctx, keep: keep}
}

// w returns p's master weight in the compute dtype dt: the parameter itself
// for float32, a differentiable cast (its gradient flows back to the float32
// master weight as float32) for bfloat16.
func (t *tape) w(p *Param, dt ops.DType) *ops.Tensor {
	return t.do("casting "+p.Name, func() (*ops.Tensor, error) { return p.T.AsType(t.ctx, dt) })
}

// tokens puts b*t token ids on the model's device as an int32 [b, t] tensor.
func (t *tape) tokens(m *Model, ids []int32, b, n int) *ops.Tensor {
	x := t.do("tokens", func() (*ops.Tensor, error) { return ops.FromInt32(ids, b, n) })
	if m.Device == ops.CPU {
		return x
	}
	return t.do("tokens to device", func() (*ops.Tensor, error) { return x.To(t.ctx, m.Device) })
}

// forward returns the logits [B, T, VocabSize] (a view of the padded
// [B, T, PaddedVocab] product) of tokens [B, T] in compute dtype dt.
//
// Mixed precision: with dt = BFloat16 every weight is cast from its float32
// master copy for the step, so the matmuls (cuBLASLt on a GPU) take bfloat16
// inputs and accumulate in float32, and activations are bfloat16; layer
// norm, GELU, attention's softmax and the loss compute in float32 inside
// their kernels; the loss is computed in float32 from the bfloat16 logits
// (nn.CrossEntropy), as torch.autocast does.
func (m *Model) forward(t *tape, tokens *ops.Tensor, dt ops.DType) *ops.Tensor {
	ctx := t.ctx
	wte := t.w(m.wte, dt)
	x := t.do("embedding", func() (*ops.Tensor, error) { return nn.Embedding(ctx, tokens, wte, t.w(m.wpe, dt)) })
	for i, b := range m.blocks {
		at := func(s string) string { return fmt.Sprintf("layer %d %s", i, s) }
		h := t.do(at("ln_1"), func() (*ops.Tensor, error) {
			return nn.LayerNorm(ctx, x, t.w(b.ln1W, dt), t.w(b.ln1B, dt), LayerNormEps)
		})
		qkv := t.do(at("c_attn"), func() (*ops.Tensor, error) { return nn.Linear(ctx, h, t.w(b.attnW, dt), t.w(b.attnB, dt)) })
		a := t.do(at("attention"), func() (*ops.Tensor, error) { return nn.CausalSelfAttention(ctx, qkv, m.Config.Heads) })
		a = t.do(at("attn.c_proj"), func() (*ops.Tensor, error) {
			return nn.Linear(ctx, a, t.w(b.attnProjW, dt), t.w(b.attnProjB, dt))
		})
		x = t.do(at("residual 1"), func() (*ops.Tensor, error) { return ops.Axpby(ctx, 1, x, 1, a) })
		h = t.do(at("ln_2"), func() (*ops.Tensor, error) {
			return nn.LayerNorm(ctx, x, t.w(b.ln2W, dt), t.w(b.ln2B, dt), LayerNormEps)
		})
		h = t.do(at("c_fc"), func() (*ops.Tensor, error) { return nn.Linear(ctx, h, t.w(b.fcW, dt), t.w(b.fcB, dt)) })
		h = t.do(at("gelu"), func() (*ops.Tensor, error) { return nn.GELU(ctx, h) })
		h = t.do(at("mlp.c_proj"), func() (*ops.Tensor, error) {
			return nn.Linear(ctx, h, t.w(b.fcProjW, dt), t.w(b.fcProjB, dt))
		})
		x = t.do(at("residual 2"), func() (*ops.Tensor, error) { return ops.Axpby(ctx, 1, x, 1, h) })
	}
	x = t.do("ln_f", func() (*ops.Tensor, error) {
		return nn.LayerNorm(ctx, x, t.w(m.lnfW, dt), t.w(m.lnfB, dt), LayerNormEps)
	})
	logits := t.do("lm_head", func() (*ops.Tensor, error) { return nn.Linear(ctx, x, wte, nil) })
	return t.do("cutting the vocabulary padding", func() (*ops.Tensor, error) {
		return logits.Narrow(2, 0, m.Config.VocabSize)
	})
}

// checkBatch checks a batch of b sequences of n tokens.
func (m *Model) checkBatch(ids []int32, b, n int) error {
	if b <= 0 || n <= 0 || n > m.Config.Context {
		return fmt.Errorf("gpt2: batch of %d x %d tokens: need b > 0 and 0 < T <= context %d", b, n, m.Config.Context)
	}
	if len(ids) != b*n {
		return fmt.Errorf("gpt2: %d token ids for a batch of %d x %d", len(ids), b, n)
	}
	for i, id := range ids {
		if id < 0 || int(id) >= m.Config.VocabSize {
			return fmt.Errorf("gpt2: %w: token %d at index %d is outside the model's vocabulary of %d", ErrMismatch, id, i, m.Config.VocabSize)
		}
	}
	return nil
}

// LossBackward runs the model on a batch (inputs and targets b*n ids each,
// row-major [b, n]; a target of -1 is ignored), adds the gradient of
// scale*loss to every parameter's Grad (scale = 1/micro-batches for
// gradient accumulation) and returns the mean cross-entropy loss.
func (m *Model) LossBackward(ctx context.Context, inputs, targets []int32, b, n int, dt ops.DType, scale float64) (float64, error) {
	if err := m.checkBatch(inputs, b, n); err != nil {
		return 0, err
	}
	if len(targets) != b*n {
		return 0, fmt.Errorf("gpt2: %d targets for a batch of %d x %d", len(targets), b, n)
	}
	t := newTape(ctx, m)
	defer t.free()
	loss := m.lossOn(t, inputs, targets, b, n, dt)
	scaled := t.do("scaling the loss", func() (*ops.Tensor, error) { return ops.Scale(ctx, loss, scale) })
	if t.err != nil {
		return 0, t.err
	}
	v, err := loss.Item()
	if err != nil {
		return 0, fmt.Errorf("gpt2: reading the loss: %w", err)
	}
	if err := scaled.Backward(ctx); err != nil {
		return 0, fmt.Errorf("gpt2: backward: %w", err)
	}
	return v, nil
}

func (m *Model) lossOn(t *tape, inputs, targets []int32, b, n int, dt ops.DType) *ops.Tensor {
	logits := m.forward(t, t.tokens(m, inputs, b, n), dt)
	tg := t.tokens(m, targets, b, n)
	return t.do("cross-entropy", func() (*ops.Tensor, error) { return nn.CrossEntropy(t.ctx, logits, tg) })
}

// Loss returns the mean cross-entropy of a batch without touching the
// gradients (evaluation).
func (m *Model) Loss(ctx context.Context, inputs, targets []int32, b, n int, dt ops.DType) (float64, error) {
	if err := m.checkBatch(inputs, b, n); err != nil {
		return 0, err
	}
	t := newTape(ctx, m)
	defer t.free()
	loss := m.lossOn(t, inputs, targets, b, n, dt)
	if t.err != nil {
		return 0, t.err
	}
	v, err := loss.Item()
	if err != nil {
		return 0, fmt.Errorf("gpt2: reading the loss: %w", err)
	}
	return v, nil
}

// Logits returns the float32 logits of a batch, [b, n, VocabSize]
// row-major, on the host.
func (m *Model) Logits(ctx context.Context, inputs []int32, b, n int, dt ops.DType) ([]float32, error) {
	if err := m.checkBatch(inputs, b, n); err != nil {
		return nil, err
	}
	t := newTape(ctx, m)
	defer t.free()
	logits := m.forward(t, t.tokens(m, inputs, b, n), dt)
	if t.err != nil {
		return nil, t.err
	}
	v, err := logits.Float32s()
	if err != nil {
		return nil, fmt.Errorf("gpt2: reading the logits: %w", err)
	}
	return v, nil
}
