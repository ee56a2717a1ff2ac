package gpt2

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2/safetensors"
	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// The files of a checkpoint folder. ConfigFile and WeightsFile are what
// Hugging Face's GPT2LMHeadModel.from_pretrained(folder) reads; StateFile
// (optimizer moments, step, data position, RNG) is this package's, for
// resuming a run.
const (
	ConfigFile  = "config.json"
	WeightsFile = "model.safetensors"
	StateFile   = "train_state.safetensors"
)

// ErrMismatch is wrapped by the errors of a checkpoint that does not fit:
// another architecture, shape, dtype or vocabulary.
var ErrMismatch = errors.New("does not fit the model")

// hostWeights returns every parameter as float32 in Hugging Face's layout:
// Conv1D weights transposed to [In, Out] and wte cut to VocabSize rows.
func (m *Model) hostWeights() (map[string]safetensors.Tensor, error) {
	return m.hfLayout("", func(p *Param) *ops.Tensor { return p.T })
}

// HFGrads returns every parameter's gradient as float32 in Hugging Face's
// names ("grad.transformer.<name>") and layout, for comparing with
// PyTorch's; a parameter without a gradient is an error.
func (m *Model) HFGrads() (map[string]safetensors.Tensor, error) {
	return m.hfLayout("grad.", func(p *Param) *ops.Tensor { return p.T.Grad() })
}

func (m *Model) hfLayout(prefix string, get func(*Param) *ops.Tensor) (map[string]safetensors.Tensor, error) {
	out := map[string]safetensors.Tensor{}
	for _, p := range m.Params {
		t := get(p)
		if t == nil {
			return nil, fmt.Errorf("gpt2: %s has no gradient", p.Name)
		}
		v, err := t.Float32s()
		if err != nil {
			return nil, fmt.Errorf("gpt2: reading %s: %w", p.Name, err)
		}
		shape := t.Shape()
		switch {
		case p.HFTranspose:
			v, shape = transpose(v, shape[0], shape[1]), []int{shape[1], shape[0]}
		case p == m.wte:
			v, shape = v[:m.Config.VocabSize*m.Config.Width], []int{m.Config.VocabSize, m.Config.Width}
		}
		out[prefix+"transformer."+p.Name] = safetensors.F32(v, shape...)
	}
	return out, nil
}

// transpose returns the [c, r] transpose of a row-major [r, c] matrix.
func transpose(v []float32, r, c int) []float32 {
	t := make([]float32, len(v))
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			t[j*r+i] = v[i*c+j]
		}
	}
	return t
}

// SaveHF writes the model's weights (float32) and config.json to dir
// (created if needed) in Hugging Face's format: tensors named
// "transformer.<name>", Conv1D weights [In, Out], wte with VocabSize rows,
// the LM head tied to wte (no lm_head.weight, as save_pretrained writes).
func (m *Model) SaveHF(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("gpt2: %w", err)
	}
	w, err := m.hostWeights()
	if err != nil {
		return err
	}
	if err := safetensors.Write(filepath.Join(dir, WeightsFile), w, map[string]string{"format": "pt"}); err != nil {
		return err
	}
	if err := writeHFConfig(filepath.Join(dir, ConfigFile), m.Config); err != nil {
		return fmt.Errorf("gpt2: %w", err)
	}
	return nil
}

// LoadHF reads a Hugging Face GPT-2 folder (config.json and
// model.safetensors, as save_pretrained writes them, with or without the
// "transformer." prefix) onto dev. Weights must be float32 with the shapes
// config.json implies; anything else is an error naming the tensor.
func LoadHF(ctx context.Context, dir string, dev ops.Device) (*Model, error) {
	c, err := readHFConfig(filepath.Join(dir, ConfigFile))
	if err != nil {
		return nil, err
	}
	ts, _, err := safetensors.Read(filepath.Join(dir, WeightsFile))
	if err != nil {
		return nil, err
	}
	host := map[string][]float32{}
	for _, s := range c.specs() {
		t, ok := ts["transformer."+s.name]
		if !ok {
			t, ok = ts[s.name]
		}
		if !ok {
			return nil, fmt.Errorf("gpt2: %s: %w: no tensor transformer.%s (config.json says %d layers)", dir, ErrMismatch, s.name, c.Layers)
		}
		want := slices.Clone(s.shape)
		if s.tr {
			want[0], want[1] = want[1], want[0]
		}
		if s.name == "wte.weight" {
			want[0] = c.VocabSize
		}
		if !slices.Equal(t.Shape, want) {
			return nil, fmt.Errorf("gpt2: %s: %w: %s has shape %v, expected %v for %+v", dir, ErrMismatch, s.name, t.Shape, want, c)
		}
		if t.DType != "F32" {
			return nil, fmt.Errorf("gpt2: %s: %w: %s has dtype %s, expected F32 (master weights are float32)", dir, ErrMismatch, s.name, t.DType)
		}
		v, err := t.Float32s()
		if err != nil {
			return nil, err
		}
		switch {
		case s.tr:
			v = transpose(v, want[0], want[1])
		case s.name == "wte.weight":
			v = append(v, make([]float32, (c.PaddedVocab-c.VocabSize)*c.Width)...)
		}
		host[s.name] = v
	}
	return fromHost(ctx, c, host, dev)
}

// CheckSameShape returns an ErrMismatch error when other's architecture
// differs from m's (resuming a run with another configuration).
func (m *Model) CheckSameShape(c Config) error {
	if c != m.Config {
		return fmt.Errorf("gpt2: %w: checkpoint is %+v, the run is %+v", ErrMismatch, m.Config, c)
	}
	return nil
}
