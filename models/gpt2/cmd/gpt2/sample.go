package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"

	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2"
	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2/shard"
	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

func eval(args []string) error {
	fs := flag.NewFlagSet("eval", flag.ExitOnError)
	ckpt := fs.String("ckpt", "", "checkpoint folder (config.json + model.safetensors)")
	data := fs.String("data", "", "folder with val_*.bin shards")
	rf := addRunFlags(fs)
	b := fs.Int("batch", 8, "sequences per batch")
	n := fs.Int("seq", 1024, "tokens per sequence")
	batches := fs.Int("batches", 0, "batches to evaluate (0: the whole validation split)")
	fs.Parse(args)
	if *ckpt == "" || *data == "" {
		return fmt.Errorf("need -ckpt and -data")
	}
	ctx := context.Background()
	dev, dt, err := rf.parse()
	if err != nil {
		return err
	}
	m, err := gpt2.LoadHF(ctx, *ckpt, dev)
	if err != nil {
		return err
	}
	paths, err := shards(*data, "val")
	if err != nil {
		return err
	}
	if err := checkVocab(m.Config, paths, nil); err != nil {
		return err
	}
	l, err := shard.NewLoader(paths, *b, *n, 0, 1)
	if err != nil {
		return err
	}
	k := *batches
	if k <= 0 {
		if k, err = l.StepsPerEpoch(); err != nil {
			return err
		}
	}
	var sum float64
	for i := 0; i < k; i++ {
		in, tgt, err := l.Next()
		if err != nil {
			return err
		}
		v, err := m.Loss(ctx, in, tgt, *b, *n, dt)
		if err != nil {
			return oomHint(err, m.Config, *b, *n, 1, dt)
		}
		sum += v
	}
	fmt.Printf("val loss %.4f over %d batches of %d x %d tokens\n", sum/float64(k), k, *b, *n)
	return nil
}

func sample(args []string) error {
	fs := flag.NewFlagSet("sample", flag.ExitOnError)
	ckpt := fs.String("ckpt", "", "checkpoint folder (config.json + model.safetensors)")
	vocab := fs.String("vocab", "", "GPT-2 vocabulary folder (empty: byte tokens)")
	var prompts multi
	fs.Var(&prompts, "prompt", "prompt text (repeatable: one sequence each, batched; default <|endoftext|>)")
	batch := fs.Int("batch", 1, "sequences per prompt")
	nTok := fs.Int("n", 100, "tokens to generate")
	temp := fs.Float64("temp", 0.8, "temperature (0: greedy)")
	topK := fs.Int("topk", 40, "sample from the k most likely tokens (0: all)")
	seed := fs.Uint64("seed", 1, "RNG seed")
	rf := addRunFlags(fs)
	fs.Parse(args)
	if *ckpt == "" {
		return fmt.Errorf("need -ckpt")
	}
	ctx := context.Background()
	dev, dt, err := rf.parse()
	if err != nil {
		return err
	}
	tok, err := loadTokenizer(*vocab)
	if err != nil {
		return err
	}
	m, err := gpt2.LoadHF(ctx, *ckpt, dev)
	if err != nil {
		return err
	}
	if tok.vocabSize() != m.Config.VocabSize {
		return fmt.Errorf("%w: the tokenizer has %d tokens, the model %d", gpt2.ErrMismatch, tok.vocabSize(), m.Config.VocabSize)
	}
	if len(prompts) == 0 {
		prompts = multi{""}
	}
	var ps []string
	for _, p := range prompts {
		for range *batch {
			ps = append(ps, p)
		}
	}
	return printSamples(ctx, m, tok, ps, *nTok, *temp, *topK, rand.New(rand.NewPCG(*seed, 2)), dt)
}

// printSamples continues each prompt (grouped by token length, each group
// one batch) and prints the texts.
func printSamples(ctx context.Context, m *gpt2.Model, tok *tokenizer, prompts []string, n int, temp float64, k int, rng *rand.Rand, dt ops.DType) error {
	groups := map[int][]int{}
	ids := make([][]int32, len(prompts))
	for i, p := range prompts {
		ids[i] = tok.encode(p)
		if tok.eot >= 0 && (p == "" || len(ids[i]) == 0) {
			ids[i] = append([]int32{tok.eot}, ids[i]...)
		}
		if len(ids[i]) == 0 {
			ids[i] = []int32{'\n'}
		}
		groups[len(ids[i])] = append(groups[len(ids[i])], i)
	}
	for _, idx := range groups {
		batch := make([][]int32, len(idx))
		for j, i := range idx {
			batch[j] = ids[i]
		}
		outs, err := m.Generate(ctx, batch, min(n, m.Config.Context-len(batch[0])), temp, k, rng, dt)
		if err != nil {
			return err
		}
		for j, i := range idx {
			text, err := tok.decode(outs[j])
			if err != nil {
				return err
			}
			fmt.Printf("--- sample %d (prompt %q)\n%s%s\n", i, prompts[i], prompts[i], text)
		}
	}
	return nil
}
