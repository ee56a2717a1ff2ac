package gpt2

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2/safetensors"
	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// micro has the tiny configuration's structure at a size whose whole
// Jacobian GradCheck can afford.
var micro = Config{Layers: 2, Heads: 2, Width: 8, Context: 8, VocabSize: 11, PaddedVocab: 16}

func randTokens(rng *rand.Rand, n, v int) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(rng.IntN(v))
	}
	return s
}

// float64Model returns a model of c whose parameters are float64 CPU
// tensors (GPT-2's initialisation, with the biases and layer norms also
// drawn so that their gradients are not special), for finite differences.
func float64Model(t *testing.T, c Config, seed uint64) *Model {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 9))
	var ts []*ops.Tensor
	for _, s := range c.specs() {
		n := 1
		for _, d := range s.shape {
			n *= d
		}
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.NormFloat64() * 0.3
			if s.std < 0 {
				v[i] += 1
			}
		}
		if s.name == "wte.weight" {
			clear(v[c.VocabSize*c.Width:])
		}
		x, err := ops.FromFloat64(v, s.shape...)
		if err != nil {
			t.Fatal(err)
		}
		x.SetRequiresGrad(true)
		ts = append(ts, x)
	}
	m, err := assemble(c, ts, ops.CPU)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestGradCheck compares every parameter's gradient with central finite
// differences (ops.GradCheck, float64) on the micro configuration.
func TestGradCheck(t *testing.T) {
	ctx := context.Background()
	m := float64Model(t, micro, 1)
	rng := rand.New(rand.NewPCG(2, 2))
	const b, n = 2, 5
	in, tgt := randTokens(rng, b*n, micro.VocabSize), randTokens(rng, b*n, micro.VocabSize)
	tgt[3] = -1 // ignored
	var inputs []*ops.Tensor
	for _, p := range m.Params {
		inputs = append(inputs, p.T)
	}
	err := ops.GradCheck(ctx, func(ctx context.Context, ps []*ops.Tensor) (*ops.Tensor, error) {
		mm, err := assemble(micro, ps, ops.CPU)
		if err != nil {
			return nil, err
		}
		tp := newTape(ctx, mm)
		tp.keep = nil // GradCheck owns the result
		loss := mm.lossOn(tp, in, tgt, b, n, ops.Float64)
		return loss, tp.err
	}, inputs, ops.GradCheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTinyGradSpots checks entries of every parameter of the tiny
// configuration itself against central differences (float64).
func TestTinyGradSpots(t *testing.T) {
	ctx := context.Background()
	c := Tiny()
	m := float64Model(t, c, 3)
	rng := rand.New(rand.NewPCG(4, 4))
	const b, n = 2, 16
	in, tgt := randTokens(rng, b*n, c.VocabSize), randTokens(rng, b*n, c.VocabSize)
	if _, err := m.LossBackward(ctx, in, tgt, b, n, ops.Float64, 1); err != nil {
		t.Fatal(err)
	}
	const h = 1e-5
	for _, p := range m.Params {
		g, err := p.T.Grad().Float64s()
		if err != nil {
			t.Fatal(err)
		}
		vals, _ := p.T.Float64s()
		for k := 0; k < 2; k++ {
			j := rng.IntN(len(vals))
			if p.Name == "wte.weight" {
				j = rng.IntN(c.VocabSize * c.Width)
			}
			at := func(d float64) float64 {
				v := slices.Clone(vals)
				v[j] += d
				x, _ := ops.FromFloat64(v, p.T.Shape()...)
				old := p.T
				p.T = x
				defer func() { p.T = old }()
				l, err := m.Loss(ctx, in, tgt, b, n, ops.Float64)
				if err != nil {
					t.Fatal(err)
				}
				return l
			}
			fd := (at(h) - at(-h)) / (2 * h)
			if math.Abs(fd-g[j]) > 1e-6+1e-4*math.Abs(fd) {
				t.Errorf("%s[%d]: autograd %.9g, finite differences %.9g", p.Name, j, g[j], fd)
			}
		}
	}
}

// memoText is what TestMemorise trains on: 256 bytes.
const memoText = "In the beginning God created the heaven and the earth. And the earth was without form, and void; " +
	"and darkness was upon the face of the deep. And the Spirit of God moved upon the face of the waters. " +
	"And God said, Let there be light: and there was light. And God saw it."

func bytesOf(s string) []int32 {
	ids := make([]int32, len(s))
	for i := range ids {
		ids[i] = int32(s[i])
	}
	return ids
}

// windows returns a Batch of b windows of n tokens from toks, starting at
// successive offsets.
func windows(toks []int32, b, n int) Batch {
	off := 0
	return func() ([]int32, []int32, error) {
		in, tgt := make([]int32, 0, b*n), make([]int32, 0, b*n)
		for i := 0; i < b; i++ {
			if off+n+1 > len(toks) {
				off = 0
			}
			in, tgt = append(in, toks[off:off+n]...), append(tgt, toks[off+1:off+n+1]...)
			off += n / 2
		}
		return in, tgt, nil
	}
}

// TestMemorise trains the tiny configuration on the CPU on 256 bytes of text
// until it has learned them: the loss must fall from ln(256) = 5.5 to below
// 0.5 nats within 200 AdamW steps.
func TestMemorise(t *testing.T) {
	ctx := context.Background()
	m, err := New(ctx, Tiny(), 1, ops.CPU)
	if err != nil {
		t.Fatal(err)
	}
	h := Hyper{LR: 3e-3, MinLRFrac: 0.1, Warmup: 10, Steps: 200, WeightDecay: 0.0, Beta1: 0.9, Beta2: 0.95, Eps: 1e-8, Clip: 1}
	tr, err := NewTrainer(m, h, ops.Float32)
	if err != nil {
		t.Fatal(err)
	}
	next := windows(bytesOf(memoText), 8, 32)
	var first, last float64
	for tr.Step < h.Steps {
		res, err := tr.TrainStep(ctx, next, 8, 32, 1)
		if err != nil {
			t.Fatal(err)
		}
		if tr.Step == 1 {
			first = res.Loss
		}
		last = res.Loss
		if last < 0.5 {
			break
		}
	}
	t.Logf("loss %.3f -> %.3f in %d steps", first, last, tr.Step)
	if math.Abs(first-math.Log(256)) > 0.3 || last >= 0.5 {
		t.Fatalf("loss %.3f -> %.3f after %d steps: want about %.2f -> below 0.5", first, last, tr.Step, math.Log(256))
	}
}

// TestResume checks that save -> load -> one step equals one step: weights,
// AdamW moments, step and data position all survive the checkpoint.
func TestResume(t *testing.T) {
	ctx := context.Background()
	m, err := New(ctx, Tiny(), 5, ops.CPU)
	if err != nil {
		t.Fatal(err)
	}
	h := DefaultHyper(10)
	h.LR = 1e-3
	tr, err := NewTrainer(m, h, ops.Float32)
	if err != nil {
		t.Fatal(err)
	}
	next := windows(bytesOf(memoText), 4, 16)
	for range 3 {
		if _, err := tr.TrainStep(ctx, next, 4, 16, 2); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	if err := tr.Save(dir, RunState{Batch: 4, SeqLen: 16, Accum: 2, RNG: []byte{1, 2}}); err != nil {
		t.Fatal(err)
	}
	tr2, rs, err := Resume(ctx, dir, ops.CPU)
	if err != nil {
		t.Fatal(err)
	}
	if tr2.Step != 3 || rs.Batch != 4 || !slices.Equal(rs.RNG, []byte{1, 2}) || tr2.Hyper != tr.Hyper {
		t.Fatalf("resumed step %d, state %+v", tr2.Step, rs)
	}
	in, tgt, _ := next()
	one := func() ([]int32, []int32, error) { return in, tgt, nil }
	r1, err := tr.TrainStep(ctx, one, 4, 16, 1)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := tr2.TrainStep(ctx, one, 4, 16, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r1 != r2 {
		t.Fatalf("step after resuming: %+v, without: %+v", r2, r1)
	}
	for i, p := range tr.Model.Params {
		a, _ := p.T.Float32s()
		b, _ := tr2.Model.Params[i].T.Float32s()
		if !slices.Equal(a, b) {
			t.Fatalf("%s differs after one step from the resumed run", p.Name)
		}
	}
}

func TestCheckpointErrors(t *testing.T) {
	ctx := context.Background()
	m, err := New(ctx, Tiny(), 7, ops.CPU)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := m.SaveHF(dir); err != nil {
		t.Fatal(err)
	}
	// Round trip: the same weights, padding rows zero, Conv1D layout in the file.
	m2, err := LoadHF(ctx, dir, ops.CPU)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range m.Params {
		a, _ := p.T.Float32s()
		b, _ := m2.Params[i].T.Float32s()
		if !slices.Equal(a, b) {
			t.Fatalf("%s changed through SaveHF/LoadHF", p.Name)
		}
	}
	ts, _, err := safetensors.Read(filepath.Join(dir, WeightsFile))
	if err != nil {
		t.Fatal(err)
	}
	if s := ts["transformer.h.0.mlp.c_fc.weight"].Shape; !slices.Equal(s, []int{64, 256}) {
		t.Fatalf("c_fc.weight saved as %v, want Hugging Face's [In, Out] = [64 256]", s)
	}
	if s := ts["transformer.wte.weight"].Shape; !slices.Equal(s, []int{256, 64}) {
		t.Fatalf("wte saved as %v", s)
	}
	cfg, _ := os.ReadFile(filepath.Join(dir, ConfigFile))

	write := func(name string, f func(map[string]safetensors.Tensor), config string) string {
		d := filepath.Join(t.TempDir(), name)
		os.MkdirAll(d, 0o755)
		c := map[string]safetensors.Tensor{}
		for k, v := range ts {
			c[k] = v
		}
		f(c)
		if err := safetensors.Write(filepath.Join(d, WeightsFile), c, map[string]string{"format": "pt"}); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(d, ConfigFile), []byte(config), 0o644)
		return d
	}
	same := string(cfg)
	for _, c := range []struct {
		dir, want string
	}{
		{write("bf16", func(c map[string]safetensors.Tensor) {
			x := c["transformer.ln_f.bias"]
			c["transformer.ln_f.bias"] = safetensors.Tensor{DType: "BF16", Shape: x.Shape, Data: make([]byte, 2*x.Numel())}
		}, same), "ln_f.bias has dtype BF16, expected F32"},
		{write("shape", func(c map[string]safetensors.Tensor) {
			c["transformer.wpe.weight"] = safetensors.F32(make([]float32, 16*64), 16, 64)
		}, same), "wpe.weight has shape [16 64], expected [32 64]"},
		{write("layers", func(map[string]safetensors.Tensor) {}, strings.Replace(same, `"n_layer": 2`, `"n_layer": 3`, 1)), "no tensor transformer.h.2.ln_1.weight"},
		{write("vocab", func(map[string]safetensors.Tensor) {}, strings.Replace(same, `"vocab_size": 256`, `"vocab_size": 300`, 1)), "wte.weight has shape [256 64], expected [300 64]"},
	} {
		_, err := LoadHF(ctx, c.dir, ops.CPU)
		if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("LoadHF(%s) = %v, want ErrMismatch saying %q", filepath.Base(c.dir), err, c.want)
		}
	}
	if _, err := LoadHF(ctx, t.TempDir(), ops.CPU); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("LoadHF of an empty folder = %v", err)
	}
	if _, err := m.Loss(ctx, []int32{300}, []int32{1}, 1, 1, ops.Float32); !errors.Is(err, ErrMismatch) {
		t.Errorf("token 300 in a 256-token model: %v", err)
	}
}

// TestSampler checks the key/value cache: each step's logits equal the full
// forward pass's at that position, batched and one by one.
func TestSampler(t *testing.T) {
	ctx := context.Background()
	c := Tiny()
	m, err := New(ctx, c, 11, ops.CPU)
	if err != nil {
		t.Fatal(err)
	}
	const b, n = 3, 12
	toks := randTokens(rand.New(rand.NewPCG(1, 1)), b*n, c.VocabSize)
	full, err := m.Logits(ctx, toks, b, n, ops.Float32)
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.NewSampler(b, ops.Float32)
	if err != nil {
		t.Fatal(err)
	}
	V := c.VocabSize
	for pos := 0; pos < n; pos++ {
		ids := []int32{toks[pos], toks[n+pos], toks[2*n+pos]}
		got, err := s.Step(ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < b; i++ {
			want := full[(i*n+pos)*V : (i*n+pos+1)*V]
			for j := range want {
				if d := math.Abs(float64(got[i*V+j] - want[j])); d > 1e-4*(1+math.Abs(float64(want[j]))) {
					t.Fatalf("sequence %d position %d logit %d: cached %g, full %g", i, pos, j, got[i*V+j], want[j])
				}
			}
		}
	}
	// Greedy generation: batched equals one at a time.
	prompts := [][]int32{toks[:4], toks[n : n+4]}
	both, err := m.Generate(ctx, prompts, 6, 0, 0, nil, ops.Float32)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range prompts {
		one, err := m.Generate(ctx, [][]int32{p}, 6, 0, 0, nil, ops.Float32)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(one[0], both[i]) {
			t.Fatalf("prompt %d: batched %v, alone %v", i, both[i], one[0])
		}
	}
	if _, err := m.Generate(ctx, [][]int32{toks[:4], toks[:3]}, 2, 0, 0, nil, ops.Float32); err == nil {
		t.Fatal("prompts of different lengths: no error")
	}
	rng := rand.New(rand.NewPCG(3, 3))
	for range 50 {
		if k := Pick([]float32{0, 5, 1, 4}, 1, 2, rng); k != 1 && k != 3 {
			t.Fatalf("top-2 pick gave %d", k)
		}
	}
}

func TestSchedule(t *testing.T) {
	h := Hyper{LR: 1, MinLRFrac: 0.1, Warmup: 10, Steps: 110}
	for _, c := range []struct {
		step int
		want float64
	}{{0, 0.1}, {9, 1}, {10, 1}, {60, 0.55}, {110, 0.1}, {500, 0.1}} {
		if got := h.LRAt(c.step); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("LRAt(%d) = %g, want %g", c.step, got, c.want)
		}
	}
	if n := Small().NumParams(); n != 124_439_808 {
		t.Errorf("Small().NumParams() = %d, want 124439808", n)
	}
}

// TestHFMicro reads a checkpoint that transformers' save_pretrained wrote
// (testdata/make_hf_micro.py) and compares the Go model's float32 logits,
// loss and gradients on CPU with PyTorch's on the same batch.
func TestHFMicro(t *testing.T) {
	ctx := context.Background()
	m, err := LoadHF(ctx, "testdata/hf_micro", ops.CPU)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("testdata/hf_micro_ref.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Inputs, Targets []int32
		Batch, Seq      int
		Logits          []float64
		Loss            float64
		Grads           map[string][]float64
	}
	if err := json.Unmarshal(raw, &ref); err != nil {
		t.Fatal(err)
	}
	logits, err := m.Logits(ctx, ref.Inputs, ref.Batch, ref.Seq, ops.Float32)
	if err != nil {
		t.Fatal(err)
	}
	if e := maxRelErr(f64(logits), ref.Logits); e > 1e-5 {
		t.Errorf("logits: max |go - torch| / max |torch| = %.2e, want <= 1e-5", e)
	}
	loss, err := m.LossBackward(ctx, ref.Inputs, ref.Targets, ref.Batch, ref.Seq, ops.Float32, 1)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(loss-ref.Loss) > 1e-5*ref.Loss {
		t.Errorf("loss %.7f, torch %.7f", loss, ref.Loss)
	}
	grads, err := m.HFGrads()
	if err != nil {
		t.Fatal(err)
	}
	if len(grads) != len(ref.Grads) {
		t.Errorf("%d gradients, torch has %d", len(grads), len(ref.Grads))
	}
	for name, want := range ref.Grads {
		g, ok := grads["grad."+name]
		if !ok {
			t.Errorf("no gradient for %s", name)
			continue
		}
		v, _ := g.Float32s()
		if e := maxRelErr(f64(v), want); e > 1e-4 {
			t.Errorf("%s: gradient max rel err %.2e, want <= 1e-4", name, e)
		}
	}
}

func f64(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// maxRelErr returns max |a - b| / max |b|.
func maxRelErr(a, b []float64) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	var d, m float64
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
		m = math.Max(m, math.Abs(b[i]))
	}
	if m == 0 {
		return d
	}
	return d / m
}
