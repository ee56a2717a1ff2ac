package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2"
	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2/safetensors"
	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2/shard"
	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// parity writes what parity/parity.py compares with PyTorch: the initial
// weights as a Hugging Face checkpoint, the batches, step 0's loss, logits
// and gradients in float32 and bfloat16, and the losses of AdamW steps.
func parity(args []string) error {
	fs := flag.NewFlagSet("parity", flag.ExitOnError)
	out := fs.String("out", "", "output folder")
	cfgName := fs.String("config", "small", "small or tiny")
	data := fs.String("data", "", "folder with train_*.bin shards to take the batches from (empty: random tokens)")
	devName := fs.String("device", "cuda", "cpu, cuda or cuda:N")
	b := fs.Int("batch", 4, "sequences per batch")
	n := fs.Int("seq", 256, "tokens per sequence")
	steps := fs.Int("steps", 20, "AdamW steps")
	seed := fs.Uint64("seed", 1, "seed of the initialisation and the random tokens")
	lr := fs.Float64("lr", 3e-4, "peak learning rate (warmup 5 steps, cosine to 10% at -steps)")
	fs.Parse(args)
	if *out == "" {
		return fmt.Errorf("need -out")
	}
	ctx := context.Background()
	dev, err := parseDevice(*devName)
	if err != nil {
		return err
	}
	c, err := configByName(*cfgName)
	if err != nil {
		return err
	}
	if *n > c.Context {
		return fmt.Errorf("-seq %d exceeds the context %d", *n, c.Context)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	init := filepath.Join(*out, "init")
	m, err := gpt2.New(ctx, c, *seed, dev)
	if err != nil {
		return err
	}
	if err := m.SaveHF(init); err != nil {
		return err
	}

	// The batches: consecutive windows of the corpus, or random tokens.
	next := func() ([]int32, []int32, error) { return nil, nil, nil }
	if *data != "" {
		paths, err := shards(*data, "train")
		if err != nil {
			return err
		}
		l, err := shard.NewLoader(paths, *b, *n, 0, 1)
		if err != nil {
			return err
		}
		next = l.Next
	} else {
		rng := rand.New(rand.NewPCG(*seed, 3))
		next = func() ([]int32, []int32, error) {
			s := make([]int32, *b**n+1)
			for i := range s {
				s[i] = int32(rng.IntN(c.VocabSize))
			}
			return s[:*b**n], s[1:], nil
		}
	}
	type batch struct{ in, tgt []int32 }
	var batches []batch
	bt := map[string]safetensors.Tensor{}
	for k := 0; k < *steps; k++ {
		in, tgt, err := next()
		if err != nil {
			return err
		}
		bb := batch{append([]int32(nil), in...), append([]int32(nil), tgt...)}
		batches = append(batches, bb)
		bt[fmt.Sprintf("inputs.%d", k)] = i32(bb.in, *b, *n)
		bt[fmt.Sprintf("targets.%d", k)] = i32(bb.tgt, *b, *n)
	}
	if err := safetensors.Write(filepath.Join(*out, "batches.safetensors"), bt, map[string]string{"format": "pt"}); err != nil {
		return err
	}

	for _, dt := range []ops.DType{ops.Float32, ops.BFloat16} {
		m, err := gpt2.LoadHF(ctx, init, dev)
		if err != nil {
			return err
		}
		loss, err := m.LossBackward(ctx, batches[0].in, batches[0].tgt, *b, *n, dt, 1)
		if err != nil {
			return oomHint(err, c, *b, *n, 1, dt)
		}
		ts, err := m.HFGrads()
		if err != nil {
			return err
		}
		ts["loss"] = safetensors.F32([]float32{float32(loss)})
		if dt == ops.Float32 {
			lg, err := m.Logits(ctx, batches[0].in, *b, *n, dt)
			if err != nil {
				return err
			}
			ts["logits"] = safetensors.F32(lg, *b, *n, c.VocabSize)
		}
		p := filepath.Join(*out, "go_"+dt.String()+".safetensors")
		if err := safetensors.Write(p, ts, map[string]string{"format": "pt"}); err != nil {
			return err
		}
		fmt.Printf("step 0 %v: loss %.6f (wrote %s)\n", dt, loss, p)
	}

	m, err = gpt2.LoadHF(ctx, init, dev)
	if err != nil {
		return err
	}
	h := gpt2.DefaultHyper(*steps)
	h.LR, h.Warmup = *lr, min(5, *steps)
	tr, err := gpt2.NewTrainer(m, h, ops.Float32)
	if err != nil {
		return err
	}
	rec := struct {
		Hyper  gpt2.Hyper `json:"hyper"`
		DType  string     `json:"dtype"`
		LRs    []float64  `json:"lrs"`
		Losses []float64  `json:"losses"`
		Norms  []float64  `json:"grad_norms"`
	}{Hyper: h, DType: "float32"}
	for k := 0; k < *steps; k++ {
		bb := batches[k]
		res, err := tr.TrainStep(ctx, func() ([]int32, []int32, error) { return bb.in, bb.tgt, nil }, *b, *n, 1)
		if err != nil {
			return fmt.Errorf("step %d: %w", k, err)
		}
		rec.LRs, rec.Losses, rec.Norms = append(rec.LRs, res.LR), append(rec.Losses, res.Loss), append(rec.Norms, res.GradNorm)
		fmt.Printf("step %2d: loss %.5f, lr %.3e, grad norm %.4f\n", k, res.Loss, res.LR, res.GradNorm)
	}
	j, err := json.MarshalIndent(rec, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(*out, "go_steps.json"), j, 0o644)
}

func i32(v []int32, shape ...int) safetensors.Tensor {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		b[4*i], b[4*i+1], b[4*i+2], b[4*i+3] = byte(x), byte(x>>8), byte(x>>16), byte(x>>24)
	}
	return safetensors.Tensor{DType: "I32", Shape: shape, Data: b}
}
