package gpt2

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2/safetensors"
	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2/shard"
	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// RunState is what a resumed run needs besides the weights and the AdamW
// moments: the step, the training data's position, the random generator's
// state (math/rand/v2's PCG, MarshalBinary) and the settings the run must
// keep.
type RunState struct {
	Step     int            `json:"step"`
	Data     shard.Position `json:"data"`
	RNG      []byte         `json:"rng"`
	Hyper    Hyper          `json:"hyper"`
	DType    string         `json:"dtype"`
	Batch    int            `json:"batch"`
	SeqLen   int            `json:"seq_len"`
	Accum    int            `json:"accum"`
	Vocab    int            `json:"vocab_size"`
	Losses   []float64      `json:"losses,omitempty"`
	ValSteps []int          `json:"val_steps,omitempty"`
	ValLoss  []float64      `json:"val_losses,omitempty"`
}

const stateKey = "gpt2.run"

// Save writes a whole checkpoint to dir: the model in Hugging Face's format
// (config.json, model.safetensors) and the trainer's state (StateFile: the
// AdamW moments as float32 tensors "m.<name>" and "v.<name>" in this
// package's layout, and rs as JSON metadata with the step filled in).
func (tr *Trainer) Save(dir string, rs RunState) error {
	if err := tr.Model.SaveHF(dir); err != nil {
		return err
	}
	rs.Step, rs.Hyper, rs.DType = tr.Step, tr.Hyper, tr.DType.String()
	meta, err := json.Marshal(rs)
	if err != nil {
		return fmt.Errorf("gpt2: %w", err)
	}
	ts := map[string]safetensors.Tensor{}
	for i, p := range tr.Model.Params {
		if tr.m == nil {
			break
		}
		for _, mv := range []struct {
			pre string
			t   *ops.Tensor
		}{{"m.", tr.m[i]}, {"v.", tr.v[i]}} {
			v, err := mv.t.Float32s()
			if err != nil {
				return fmt.Errorf("gpt2: reading %s%s: %w", mv.pre, p.Name, err)
			}
			ts[mv.pre+p.Name] = safetensors.F32(v, mv.t.Shape()...)
		}
	}
	return safetensors.Write(filepath.Join(dir, StateFile), ts, map[string]string{"format": "pt", stateKey: string(meta)})
}

// Resume loads a checkpoint folder written by Save onto dev: the model, a
// trainer at the saved step with its AdamW moments, and the run's state.
// The caller checks the returned state's settings against its own.
func Resume(ctx context.Context, dir string, dev ops.Device) (*Trainer, RunState, error) {
	var rs RunState
	m, err := LoadHF(ctx, dir, dev)
	if err != nil {
		return nil, rs, err
	}
	ts, meta, err := safetensors.Read(filepath.Join(dir, StateFile))
	if err != nil {
		return nil, rs, err
	}
	if err := json.Unmarshal([]byte(meta[stateKey]), &rs); err != nil {
		return nil, rs, fmt.Errorf("gpt2: %s: no run state (%s metadata): %w", filepath.Join(dir, StateFile), stateKey, err)
	}
	dt := ops.Float32
	if rs.DType == ops.BFloat16.String() {
		dt = ops.BFloat16
	}
	tr, err := NewTrainer(m, rs.Hyper, dt)
	if err != nil {
		return nil, rs, err
	}
	tr.Step = rs.Step
	if len(ts) == 0 {
		return tr, rs, nil // saved before the first step
	}
	for _, p := range m.Params {
		for _, pre := range []string{"m.", "v."} {
			t, ok := ts[pre+p.Name]
			if !ok {
				return nil, rs, fmt.Errorf("gpt2: %s: %w: no %s%s", dir, ErrMismatch, pre, p.Name)
			}
			if t.DType != "F32" || !slices.Equal(t.Shape, p.T.Shape()) {
				return nil, rs, fmt.Errorf("gpt2: %s: %w: %s%s is %s %v, expected F32 %v", dir, ErrMismatch, pre, p.Name, t.DType, t.Shape, p.T.Shape())
			}
			v, err := t.Float32s()
			if err != nil {
				return nil, rs, err
			}
			x, err := ops.FromFloat32(v, t.Shape...)
			if err == nil && dev != ops.CPU {
				x, err = x.To(ctx, dev)
			}
			if err != nil {
				return nil, rs, fmt.Errorf("gpt2: %s%s: %w", pre, p.Name, err)
			}
			if pre == "m." {
				tr.m = append(tr.m, x)
			} else {
				tr.v = append(tr.v, x)
			}
		}
	}
	return tr, rs, nil
}
