package gpt2

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2/nn"
	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// Sampler generates text one token per step with a key/value cache: each
// step runs the model on one new token per sequence, keeps its keys and
// values of every layer, and attends over all the cached ones, so no token
// is run twice. The matmuls, layer norms and GELU run on the model's
// device; the attention of the single new query over the cache runs on the
// host in float32 (its keys and values are copied back once per layer and
// step), which is what keeps the cache in plain host memory.
type Sampler struct {
	m    *Model
	dt   ops.DType
	b    int
	pos  int
	k, v [][]float32 // per layer: [b, Context, Width]
}

// NewSampler returns a sampler of b sequences in compute dtype dt.
func (m *Model) NewSampler(b int, dt ops.DType) (*Sampler, error) {
	if b <= 0 {
		return nil, fmt.Errorf("gpt2: sampler batch %d: must be positive", b)
	}
	s := &Sampler{m: m, dt: dt, b: b}
	n := b * m.Config.Context * m.Config.Width
	for range m.Config.Layers {
		s.k = append(s.k, make([]float32, n))
		s.v = append(s.v, make([]float32, n))
	}
	return s, nil
}

// Pos returns how many tokens each sequence has had.
func (s *Sampler) Pos() int { return s.pos }

// Step feeds one token per sequence (ids has b entries) at the next
// position and returns the next-token logits, [b, VocabSize] row-major.
func (s *Sampler) Step(ctx context.Context, ids []int32) ([]float32, error) {
	m, c := s.m, s.m.Config
	if s.pos >= c.Context {
		return nil, fmt.Errorf("gpt2: sampler: the context of %d tokens is full", c.Context)
	}
	if err := m.checkBatch(ids, s.b, 1); err != nil {
		return nil, err
	}
	t := newTape(ctx, m)
	defer t.free()
	dt := s.dt
	wte := t.w(m.wte, dt)
	wpe := t.w(m.wpe, dt)
	// A view of wpe (the parameter itself in float32): not the tape's to free.
	row, err := wpe.Narrow(0, s.pos, 1)
	if err != nil && t.err == nil {
		t.err = fmt.Errorf("gpt2: position row: %w", err)
	}
	tok := t.tokens(m, ids, s.b, 1)
	x := t.do("embedding", func() (*ops.Tensor, error) { return nn.Embedding(ctx, tok, wte, row) })
	for i, b := range m.blocks {
		h := t.do("ln_1", func() (*ops.Tensor, error) {
			return nn.LayerNorm(ctx, x, t.w(b.ln1W, dt), t.w(b.ln1B, dt), LayerNormEps)
		})
		qkv := t.do("c_attn", func() (*ops.Tensor, error) { return nn.Linear(ctx, h, t.w(b.attnW, dt), t.w(b.attnB, dt)) })
		if t.err != nil {
			return nil, t.err
		}
		hq, err := qkv.Float32s()
		if err != nil {
			return nil, fmt.Errorf("gpt2: sampler: reading layer %d's q, k, v: %w", i, err)
		}
		out := s.attend(i, hq)
		a := t.do("attention output", func() (*ops.Tensor, error) { return ops.FromFloat32(out, s.b, 1, c.Width) })
		if m.Device != ops.CPU {
			a = t.do("attention output to device", func() (*ops.Tensor, error) { return a.To(ctx, m.Device) })
		}
		a = t.do("attention output dtype", func() (*ops.Tensor, error) { return a.AsType(ctx, dt) })
		a = t.do("attn.c_proj", func() (*ops.Tensor, error) { return nn.Linear(ctx, a, t.w(b.attnProjW, dt), t.w(b.attnProjB, dt)) })
		x = t.do("residual 1", func() (*ops.Tensor, error) { return ops.Axpby(ctx, 1, x, 1, a) })
		h = t.do("ln_2", func() (*ops.Tensor, error) {
			return nn.LayerNorm(ctx, x, t.w(b.ln2W, dt), t.w(b.ln2B, dt), LayerNormEps)
		})
		h = t.do("c_fc", func() (*ops.Tensor, error) { return nn.Linear(ctx, h, t.w(b.fcW, dt), t.w(b.fcB, dt)) })
		h = t.do("gelu", func() (*ops.Tensor, error) { return nn.GELU(ctx, h) })
		h = t.do("mlp.c_proj", func() (*ops.Tensor, error) { return nn.Linear(ctx, h, t.w(b.fcProjW, dt), t.w(b.fcProjB, dt)) })
		x = t.do("residual 2", func() (*ops.Tensor, error) { return ops.Axpby(ctx, 1, x, 1, h) })
	}
	x = t.do("ln_f", func() (*ops.Tensor, error) {
		return nn.LayerNorm(ctx, x, t.w(m.lnfW, dt), t.w(m.lnfB, dt), LayerNormEps)
	})
	logits := t.do("lm_head", func() (*ops.Tensor, error) { return nn.Linear(ctx, x, wte, nil) })
	logits = t.do("cutting the vocabulary padding", func() (*ops.Tensor, error) { return logits.Narrow(2, 0, c.VocabSize) })
	if t.err != nil {
		return nil, t.err
	}
	v, err := logits.Float32s()
	if err != nil {
		return nil, fmt.Errorf("gpt2: sampler: reading the logits: %w", err)
	}
	s.pos++
	return v, nil
}

// attend stores the new token's keys and values of layer l (qkv is
// [b, 3*Width]: q, k, v, heads side by side in each) and returns the
// attention output [b, Width] of its query over positions 0..pos.
func (s *Sampler) attend(l int, qkv []float32) []float32 {
	c := s.m.Config
	C, hs := c.Width, c.Width/c.Heads
	out := make([]float32, s.b*C)
	scale := 1 / math.Sqrt(float64(hs))
	w := make([]float64, s.pos+1)
	for b := 0; b < s.b; b++ {
		row := qkv[b*3*C : (b+1)*3*C]
		base := b * c.Context * C
		copy(s.k[l][base+s.pos*C:], row[C:2*C])
		copy(s.v[l][base+s.pos*C:], row[2*C:3*C])
		for h := 0; h < c.Heads; h++ {
			q := row[h*hs : (h+1)*hs]
			mx := math.Inf(-1)
			for j := 0; j <= s.pos; j++ {
				k := s.k[l][base+j*C+h*hs : base+j*C+(h+1)*hs]
				var d float64
				for e := range q {
					d += float64(q[e]) * float64(k[e])
				}
				w[j] = d * scale
				mx = math.Max(mx, w[j])
			}
			var sum float64
			for j := 0; j <= s.pos; j++ {
				w[j] = math.Exp(w[j] - mx)
				sum += w[j]
			}
			o := out[b*C+h*hs : b*C+(h+1)*hs]
			for j := 0; j <= s.pos; j++ {
				v := s.v[l][base+j*C+h*hs : base+j*C+(h+1)*hs]
				p := w[j] / sum
				for e := range o {
					o[e] += float32(p * float64(v[e]))
				}
			}
		}
	}
	return out
}

// Pick draws a token from one row of logits: the k most likely (all when
// k <= 0) at temperature temp, or the most likely when temp == 0.
func Pick(logits []float32, temp float64, k int, rng *rand.Rand) int32 {
	if temp <= 0 {
		best := 0
		for i, v := range logits {
			if v > logits[best] {
				best = i
			}
		}
		return int32(best)
	}
	idx := make([]int, len(logits))
	for i := range idx {
		idx[i] = i
	}
	if k > 0 && k < len(idx) {
		sort.Slice(idx, func(a, b int) bool { return logits[idx[a]] > logits[idx[b]] })
		idx = idx[:k]
	}
	mx := math.Inf(-1)
	for _, i := range idx {
		mx = math.Max(mx, float64(logits[i]))
	}
	p := make([]float64, len(idx))
	var sum float64
	for j, i := range idx {
		p[j] = math.Exp((float64(logits[i]) - mx) / temp)
		sum += p[j]
	}
	r := rng.Float64() * sum
	for j, i := range idx {
		r -= p[j]
		if r < 0 {
			return int32(i)
		}
	}
	return int32(idx[len(idx)-1])
}

// Generate continues each prompt (all of the same length, at least one
// token) by n tokens, drawing with Pick, and returns the new tokens of each.
func (m *Model) Generate(ctx context.Context, prompts [][]int32, n int, temp float64, k int, rng *rand.Rand, dt ops.DType) ([][]int32, error) {
	if len(prompts) == 0 || len(prompts[0]) == 0 {
		return nil, fmt.Errorf("gpt2: Generate: no prompt (give at least one token, e.g. <|endoftext|>)")
	}
	p := len(prompts[0])
	for i, pr := range prompts {
		if len(pr) != p {
			return nil, fmt.Errorf("gpt2: Generate: prompt %d has %d tokens, prompt 0 has %d: batched prompts must have one length", i, len(pr), p)
		}
	}
	if p+n > m.Config.Context {
		return nil, fmt.Errorf("gpt2: Generate: %d prompt tokens + %d new exceed the context of %d", p, n, m.Config.Context)
	}
	b := len(prompts)
	s, err := m.NewSampler(b, dt)
	if err != nil {
		return nil, err
	}
	out := make([][]int32, b)
	ids := make([]int32, b)
	V := m.Config.VocabSize
	var logits []float32
	for pos := 0; pos < p+n-1; pos++ {
		for i := range ids {
			if pos < p {
				ids[i] = prompts[i][pos]
			} else {
				ids[i] = out[i][pos-p]
			}
		}
		if logits, err = s.Step(ctx, ids); err != nil {
			return nil, err
		}
		if pos >= p-1 {
			for i := range out {
				out[i] = append(out[i], Pick(logits[i*V:(i+1)*V], temp, k, rng))
			}
		}
	}
	return out, nil
}
