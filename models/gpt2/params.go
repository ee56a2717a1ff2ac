package gpt2

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// Param is one parameter: its float32 master weight (a leaf that requires
// grad, on the model's device), its name in Hugging Face's GPT2Model (e.g.
// "h.0.attn.c_attn.weight", without the "transformer." prefix) and how it is
// treated.
//
// Linear weights are stored [Out, In] (torch.nn.Linear's layout, what
// nn.Linear takes); Hugging Face's GPT-2 stores them [In, Out] (its Conv1D),
// so checkpoints transpose them (HFTranspose).
type Param struct {
	Name        string
	T           *ops.Tensor
	Decay       bool // AdamW weight decay applies: the 2-D weights (matmuls and embeddings), not biases or layer norms
	HFTranspose bool
}

type block struct {
	ln1W, ln1B, attnW, attnB, attnProjW, attnProjB *Param
	ln2W, ln2B, fcW, fcB, fcProjW, fcProjB         *Param
}

// Model is a GPT-2 with its parameters on one device.
type Model struct {
	Config Config
	Device ops.Device
	// Params lists every parameter once, in Hugging Face's order.
	Params     []*Param
	wte, wpe   *Param
	lnfW, lnfB *Param
	blocks     []block
}

// shapes returns each parameter's name, shape (this package's layout),
// whether it decays, whether Hugging Face stores it transposed, and how it
// is initialised: std > 0 a normal draw, std == 0 zeros, std < 0 ones.
type spec struct {
	name      string
	shape     []int
	decay, tr bool
	std       float64
}

func (c Config) specs() []spec {
	C := c.Width
	// GPT-2's initialisation: N(0, 0.02) weights, the two projections into the
	// residual stream scaled by 1/sqrt(2 * layers), zero biases, unit LN gains.
	proj := 0.02 / math.Sqrt(2*float64(c.Layers))
	s := []spec{
		{"wte.weight", []int{c.PaddedVocab, C}, true, false, 0.02},
		{"wpe.weight", []int{c.Context, C}, true, false, 0.01},
	}
	for i := 0; i < c.Layers; i++ {
		p := fmt.Sprintf("h.%d.", i)
		s = append(s,
			spec{p + "ln_1.weight", []int{C}, false, false, -1},
			spec{p + "ln_1.bias", []int{C}, false, false, 0},
			spec{p + "attn.c_attn.weight", []int{3 * C, C}, true, true, 0.02},
			spec{p + "attn.c_attn.bias", []int{3 * C}, false, false, 0},
			spec{p + "attn.c_proj.weight", []int{C, C}, true, true, proj},
			spec{p + "attn.c_proj.bias", []int{C}, false, false, 0},
			spec{p + "ln_2.weight", []int{C}, false, false, -1},
			spec{p + "ln_2.bias", []int{C}, false, false, 0},
			spec{p + "mlp.c_fc.weight", []int{4 * C, C}, true, true, 0.02},
			spec{p + "mlp.c_fc.bias", []int{4 * C}, false, false, 0},
			spec{p + "mlp.c_proj.weight", []int{C, 4 * C}, true, true, proj},
			spec{p + "mlp.c_proj.bias", []int{C}, false, false, 0},
		)
	}
	return append(s,
		spec{"ln_f.weight", []int{C}, false, false, -1},
		spec{"ln_f.bias", []int{C}, false, false, 0})
}

// New returns a model with GPT-2's initialisation drawn from seed (PCG), on
// dev. The token embedding's padding rows are zero.
func New(ctx context.Context, c Config, seed uint64, dev ops.Device) (*Model, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x6770_7432))
	host := map[string][]float32{}
	for _, s := range c.specs() {
		n := 1
		for _, d := range s.shape {
			n *= d
		}
		v := make([]float32, n)
		switch {
		case s.std < 0:
			for i := range v {
				v[i] = 1
			}
		case s.std > 0:
			rows := n
			if s.name == "wte.weight" {
				rows = c.VocabSize * c.Width // padding rows stay zero
			}
			for i := 0; i < rows; i++ {
				v[i] = float32(rng.NormFloat64() * s.std)
			}
		}
		host[s.name] = v
	}
	return fromHost(ctx, c, host, dev)
}

// fromHost builds a model from float32 values in this package's layout.
func fromHost(ctx context.Context, c Config, host map[string][]float32, dev ops.Device) (*Model, error) {
	var ts []*ops.Tensor
	for _, s := range c.specs() {
		t, err := ops.FromFloat32(host[s.name], s.shape...)
		if err != nil {
			return nil, fmt.Errorf("gpt2: %s: %w", s.name, err)
		}
		if dev != ops.CPU {
			if t, err = t.To(ctx, dev); err != nil {
				return nil, fmt.Errorf("gpt2: moving %s to %v: %w", s.name, dev, err)
			}
		}
		if err := t.SetRequiresGrad(true); err != nil {
			return nil, err
		}
		ts = append(ts, t)
	}
	return assemble(c, ts, dev)
}

// assemble makes a model of c whose parameters are ts, in the order of
// c.specs() (shapes checked).
func assemble(c Config, ts []*ops.Tensor, dev ops.Device) (*Model, error) {
	specs := c.specs()
	if len(ts) != len(specs) {
		return nil, fmt.Errorf("gpt2: %d tensors for %d parameters", len(ts), len(specs))
	}
	m := &Model{Config: c, Device: dev}
	byName := map[string]*Param{}
	for i, s := range specs {
		if !slices.Equal(ts[i].Shape(), s.shape) {
			return nil, fmt.Errorf("gpt2: %s has shape %v, expected %v", s.name, ts[i].Shape(), s.shape)
		}
		p := &Param{Name: s.name, T: ts[i], Decay: s.decay, HFTranspose: s.tr}
		m.Params = append(m.Params, p)
		byName[s.name] = p
	}
	m.wte, m.wpe = byName["wte.weight"], byName["wpe.weight"]
	m.lnfW, m.lnfB = byName["ln_f.weight"], byName["ln_f.bias"]
	for i := 0; i < c.Layers; i++ {
		p := func(s string) *Param { return byName[fmt.Sprintf("h.%d.%s", i, s)] }
		m.blocks = append(m.blocks, block{
			ln1W: p("ln_1.weight"), ln1B: p("ln_1.bias"), attnW: p("attn.c_attn.weight"), attnB: p("attn.c_attn.bias"),
			attnProjW: p("attn.c_proj.weight"), attnProjB: p("attn.c_proj.bias"), ln2W: p("ln_2.weight"), ln2B: p("ln_2.bias"),
			fcW: p("mlp.c_fc.weight"), fcB: p("mlp.c_fc.bias"), fcProjW: p("mlp.c_proj.weight"), fcProjB: p("mlp.c_proj.bias"),
		})
	}
	return m, nil
}

// ZeroGrad drops every parameter's gradient (the next Backward starts
// them afresh).
func (m *Model) ZeroGrad() error {
	for _, p := range m.Params {
		if g := p.T.Grad(); g != nil {
			if err := p.T.SetGrad(nil); err != nil {
				return fmt.Errorf("gpt2: clearing %s's gradient: %w", p.Name, err)
			}
		}
	}
	return nil
}
