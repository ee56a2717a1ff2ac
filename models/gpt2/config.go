package gpt2

import (
	"encoding/json"
	"fmt"
	"os"
)

// Config is a GPT-2 architecture.
//
// VocabSize is the tokenizer's vocabulary (50257 for GPT-2's BPE);
// PaddedVocab (>= VocabSize) is the number of rows of the token embedding,
// rounded up to a multiple of 128 as llm.c does so that the LM head's matmul
// has a friendly shape. The rows past VocabSize start at zero and stay zero:
// no token selects them, and the logits are cut to VocabSize columns before
// the loss, so their gradient is zero and AdamW (weight decay included)
// leaves them at zero. Checkpoints in Hugging Face's format hold only the
// VocabSize rows; loading one pads with zero rows.
type Config struct {
	Layers      int `json:"n_layer"`
	Heads       int `json:"n_head"`
	Width       int `json:"n_embd"`
	Context     int `json:"n_positions"`
	VocabSize   int `json:"vocab_size"`
	PaddedVocab int `json:"-"`
}

// Small is GPT-2 small (124M parameters).
func Small() Config {
	return Config{Layers: 12, Heads: 12, Width: 768, Context: 1024, VocabSize: 50257, PaddedVocab: PadVocab(50257)}
}

// Tiny is the configuration the tests train on the CPU: 2 layers, 4 heads,
// 64 wide, a 32-token context and a byte vocabulary (256).
func Tiny() Config {
	return Config{Layers: 2, Heads: 4, Width: 64, Context: 32, VocabSize: 256, PaddedVocab: PadVocab(256)}
}

// PadVocab rounds a vocabulary size up to a multiple of 128.
func PadVocab(v int) int { return (v + 127) / 128 * 128 }

// Validate reports a configuration that cannot be built.
func (c Config) Validate() error {
	switch {
	case c.Layers <= 0 || c.Heads <= 0 || c.Width <= 0 || c.Context <= 0 || c.VocabSize <= 0:
		return fmt.Errorf("gpt2: config %+v: every size must be positive", c)
	case c.Width%c.Heads != 0:
		return fmt.Errorf("gpt2: config: width %d is not a multiple of the %d heads", c.Width, c.Heads)
	case c.PaddedVocab < c.VocabSize:
		return fmt.Errorf("gpt2: config: padded vocabulary %d is smaller than the vocabulary %d", c.PaddedVocab, c.VocabSize)
	}
	return nil
}

// NumParams returns the number of parameters, counting the token embedding
// (tied with the LM head) once and without its padding rows, as Hugging
// Face's num_parameters does (124,439,808 for Small).
func (c Config) NumParams() int64 {
	C, L := int64(c.Width), int64(c.Layers)
	perLayer := 2*C + (C*3*C + 3*C) + (C*C + C) + 2*C + (C*4*C + 4*C) + (4*C*C + C)
	return int64(c.VocabSize)*C + int64(c.Context)*C + L*perLayer + 2*C
}

// FlopsPerToken returns the floating-point operations of a forward and
// backward pass per token at full context, PaLM's 6N + 12·L·T·C estimate
// (N the non-embedding parameters plus the LM head), used for MFU.
func (c Config) FlopsPerToken() float64 {
	C, L, T := float64(c.Width), float64(c.Layers), float64(c.Context)
	n := float64(c.NumParams()) - float64(c.Context)*C
	return 6*n + 12*L*T*C
}

// hfConfig is Hugging Face's config.json for GPT2LMHeadModel.
type hfConfig struct {
	Architectures      []string `json:"architectures"`
	ModelType          string   `json:"model_type"`
	VocabSize          int      `json:"vocab_size"`
	NPositions         int      `json:"n_positions"`
	NCtx               int      `json:"n_ctx,omitempty"`
	NEmbd              int      `json:"n_embd"`
	NLayer             int      `json:"n_layer"`
	NHead              int      `json:"n_head"`
	NInner             *int     `json:"n_inner"`
	Activation         string   `json:"activation_function"`
	ResidPdrop         float64  `json:"resid_pdrop"`
	EmbdPdrop          float64  `json:"embd_pdrop"`
	AttnPdrop          float64  `json:"attn_pdrop"`
	LayerNormEpsilon   float64  `json:"layer_norm_epsilon"`
	InitializerRange   float64  `json:"initializer_range"`
	TieWordEmbeddings  *bool    `json:"tie_word_embeddings,omitempty"`
	BosTokenID         int      `json:"bos_token_id"`
	EosTokenID         int      `json:"eos_token_id"`
	TorchDType         string   `json:"torch_dtype,omitempty"`
	ScaleAttnWeights   *bool    `json:"scale_attn_weights,omitempty"`
	ScaleAttnByInverse bool     `json:"scale_attn_by_inverse_layer_idx,omitempty"`
	ReorderAndUpcast   bool     `json:"reorder_and_upcast_attn,omitempty"`
}

// LayerNormEps is GPT-2's layer norm epsilon.
const LayerNormEps = 1e-5

func writeHFConfig(path string, c Config) error {
	tie := true
	hc := hfConfig{
		Architectures: []string{"GPT2LMHeadModel"}, ModelType: "gpt2",
		VocabSize: c.VocabSize, NPositions: c.Context, NCtx: c.Context, NEmbd: c.Width, NLayer: c.Layers, NHead: c.Heads,
		Activation: "gelu_new", LayerNormEpsilon: LayerNormEps, InitializerRange: 0.02, TieWordEmbeddings: &tie,
		BosTokenID: c.VocabSize - 1, EosTokenID: c.VocabSize - 1, TorchDType: "float32",
	}
	b, err := json.MarshalIndent(hc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// readHFConfig reads a config.json and refuses what this package does not
// implement (another architecture, activation, untied head, scaled
// attention variants).
func readHFConfig(path string) (Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("gpt2: %w", err)
	}
	var hc hfConfig
	if err := json.Unmarshal(b, &hc); err != nil {
		return Config{}, fmt.Errorf("gpt2: %s: %w", path, err)
	}
	switch {
	case hc.ModelType != "gpt2":
		return Config{}, fmt.Errorf("gpt2: %s: model_type %q, expected \"gpt2\"", path, hc.ModelType)
	case hc.Activation != "" && hc.Activation != "gelu_new" && hc.Activation != "gelu_pytorch_tanh":
		return Config{}, fmt.Errorf("gpt2: %s: activation_function %q, expected \"gelu_new\" (GELU, tanh approximation)", path, hc.Activation)
	case hc.NInner != nil && *hc.NInner != 4*hc.NEmbd:
		return Config{}, fmt.Errorf("gpt2: %s: n_inner %d, expected 4*n_embd = %d", path, *hc.NInner, 4*hc.NEmbd)
	case hc.TieWordEmbeddings != nil && !*hc.TieWordEmbeddings:
		return Config{}, fmt.Errorf("gpt2: %s: tie_word_embeddings false; this model ties the LM head to wte", path)
	case hc.ScaleAttnWeights != nil && !*hc.ScaleAttnWeights, hc.ScaleAttnByInverse, hc.ReorderAndUpcast:
		return Config{}, fmt.Errorf("gpt2: %s: a scaled-attention variant this model does not implement", path)
	case hc.LayerNormEpsilon != 0 && hc.LayerNormEpsilon != LayerNormEps:
		return Config{}, fmt.Errorf("gpt2: %s: layer_norm_epsilon %g, this model uses %g", path, hc.LayerNormEpsilon, LayerNormEps)
	}
	c := Config{Layers: hc.NLayer, Heads: hc.NHead, Width: hc.NEmbd, Context: hc.NPositions, VocabSize: hc.VocabSize,
		PaddedVocab: PadVocab(hc.VocabSize)}
	if err := c.Validate(); err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}
