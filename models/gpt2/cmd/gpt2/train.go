package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2"
	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2/shard"
)

func configByName(s string) (gpt2.Config, error) {
	switch s {
	case "small":
		return gpt2.Small(), nil
	case "tiny":
		return gpt2.Tiny(), nil
	}
	return gpt2.Config{}, fmt.Errorf("-config %q: expected small (GPT-2 124M) or tiny (2 layers, 64 wide, bytes)", s)
}

// checkVocab fails when the data's tokens or the tokenizer do not fit the
// model's vocabulary.
func checkVocab(c gpt2.Config, paths []string, tok *tokenizer) error {
	for _, p := range paths {
		ids, err := shard.Read(p)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if int(id) >= c.VocabSize {
				return fmt.Errorf("%w: shard %s has token %d, the model's vocabulary is %d (data prepared with another tokenizer?)",
					gpt2.ErrMismatch, p, id, c.VocabSize)
			}
		}
	}
	if tok != nil && tok.vocabSize() != c.VocabSize {
		return fmt.Errorf("%w: the tokenizer has %d tokens, the model %d", gpt2.ErrMismatch, tok.vocabSize(), c.VocabSize)
	}
	return nil
}

type logLine struct {
	Step     int     `json:"step"`
	Loss     float64 `json:"loss"`
	ValLoss  float64 `json:"val_loss,omitempty"`
	LR       float64 `json:"lr"`
	GradNorm float64 `json:"grad_norm"`
	MS       float64 `json:"ms"`
	TokPerS  float64 `json:"tok_per_s"`
	MFU      float64 `json:"mfu,omitempty"`
}

func train(args []string) error {
	fs := flag.NewFlagSet("train", flag.ExitOnError)
	data := fs.String("data", "", "folder of train_*.bin and val_*.bin shards (gpt2 prepare)")
	out := fs.String("out", "", "output folder: checkpoints (out/latest), loss.png, log.jsonl")
	cfgName := fs.String("config", "small", "architecture for a new model: small or tiny")
	initDir := fs.String("init", "", "start from this Hugging Face checkpoint folder instead of a random initialisation")
	resume := fs.String("resume", "", "resume the run saved in this checkpoint folder (weights, AdamW state, step, data position, RNG)")
	rf := addRunFlags(fs)
	steps := fs.Int("steps", 1000, "optimisation steps of the whole run (the cosine schedule ends there)")
	b := fs.Int("batch", 8, "sequences per micro-batch")
	n := fs.Int("seq", 1024, "tokens per sequence")
	accum := fs.Int("accum", 1, "micro-batches per step (gradient accumulation)")
	lr := fs.Float64("lr", 6e-4, "peak learning rate")
	warmup := fs.Int("warmup", -1, "warmup steps (-1: min(700, steps/10))")
	minLR := fs.Float64("min-lr-frac", 0.1, "final learning rate as a fraction of -lr")
	wd := fs.Float64("wd", 0.1, "AdamW weight decay (2-D weights only)")
	clip := fs.Float64("clip", 1, "gradient-norm clip (0: none)")
	seed := fs.Uint64("seed", 1, "seed of the initialisation and of the RNG")
	saveEvery := fs.Int("save-every", 500, "save a checkpoint every N steps (0: only at the end)")
	evalEvery := fs.Int("eval-every", 100, "validation loss every N steps (0: only at the end)")
	evalBatches := fs.Int("eval-batches", 20, "micro-batches per validation")
	maxTime := fs.Duration("max-time", 0, "stop (saving) after this long, e.g. 9m (0: no limit)")
	vocab := fs.String("vocab", "", "GPT-2 vocabulary folder, to check it against the model and print a sample at the end (empty: byte tokens)")
	fs.Parse(args)
	if *data == "" || *out == "" {
		return fmt.Errorf("need -data and -out")
	}
	ctx := context.Background()
	dev, dt, err := rf.parse()
	if err != nil {
		return err
	}
	trainPaths, err := shards(*data, "train")
	if err != nil {
		return err
	}
	valPaths, err := shards(*data, "val")
	if err != nil {
		return err
	}
	var tok *tokenizer
	if *vocab != "" {
		if tok, err = loadTokenizer(*vocab); err != nil {
			return err
		}
	}

	h := gpt2.DefaultHyper(*steps)
	h.LR, h.MinLRFrac, h.WeightDecay, h.Clip = *lr, *minLR, *wd, *clip
	if *warmup >= 0 {
		h.Warmup = *warmup
	}
	var tr *gpt2.Trainer
	rs := gpt2.RunState{Batch: *b, SeqLen: *n, Accum: *accum}
	rng := rand.NewPCG(*seed, 1)
	switch {
	case *resume != "":
		if tr, rs, err = gpt2.Resume(ctx, *resume, dev); err != nil {
			return err
		}
		if rs.Batch != *b || rs.SeqLen != *n || rs.Accum != *accum || rs.DType != dt.String() {
			return fmt.Errorf("%s was a run of batch %d x %d x %d micro-batches in %s; this one asks for %d x %d x %d in %s: resume with the same settings",
				*resume, rs.Batch, rs.SeqLen, rs.Accum, rs.DType, *b, *n, *accum, dt)
		}
		if err := rng.UnmarshalBinary(rs.RNG); err != nil {
			return fmt.Errorf("%s: RNG state: %w", *resume, err)
		}
		fmt.Printf("resumed %s at step %d (data %+v)\n", *resume, tr.Step, rs.Data)
	default:
		var m *gpt2.Model
		if *initDir != "" {
			m, err = gpt2.LoadHF(ctx, *initDir, dev)
		} else {
			var c gpt2.Config
			if c, err = configByName(*cfgName); err == nil {
				m, err = gpt2.New(ctx, c, *seed, dev)
			}
		}
		if err != nil {
			return err
		}
		if tr, err = gpt2.NewTrainer(m, h, dt); err != nil {
			return err
		}
	}
	m := tr.Model
	c := m.Config
	if err := checkVocab(c, append(trainPaths, valPaths...), tok); err != nil {
		return err
	}
	if *n > c.Context {
		return fmt.Errorf("-seq %d is longer than the model's context %d", *n, c.Context)
	}
	trainL, err := shard.NewLoader(trainPaths, *b, *n, 0, 1)
	if err != nil {
		return err
	}
	if err := trainL.Seek(rs.Data); err != nil {
		return err
	}
	valL, err := shard.NewLoader(valPaths, *b, *n, 0, 1)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	logf, err := os.OpenFile(filepath.Join(*out, "log.jsonl"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	enc := json.NewEncoder(logf)

	peak, devName2 := peakFlops(dev, dt)
	states, acts := memoryNeed(c, *b, *n, dt)
	tokPerStep := *b * *n * *accum
	fmt.Printf("GPT-2 %d layers, %d heads, %d wide, context %d, vocabulary %d (padded %d): %.1fM parameters\n",
		c.Layers, c.Heads, c.Width, c.Context, c.VocabSize, c.PaddedVocab, float64(c.NumParams())/1e6)
	fmt.Printf("on %s in %v: %d x %d tokens x %d micro-batches = %d tokens/step, steps %d..%d, about %.2f GiB device memory (estimate)\n",
		devName2, dt, *b, *n, *accum, tokPerStep, tr.Step, h.Steps, gib(states+acts))

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(stop)
	save := func(why string) error {
		buf, _ := rng.MarshalBinary()
		rs.Data, rs.RNG = trainL.Position(), buf
		tmp := filepath.Join(*out, "latest.tmp")
		os.RemoveAll(tmp)
		if err := tr.Save(tmp, rs); err != nil {
			return err
		}
		dst := filepath.Join(*out, "latest")
		os.RemoveAll(dst)
		if err := os.Rename(tmp, dst); err != nil {
			return err
		}
		fmt.Printf("saved %s at step %d (%s)\n", dst, tr.Step, why)
		return nil
	}
	evalNow := func() (float64, error) {
		valL.Reset()
		var sum float64
		for i := 0; i < *evalBatches; i++ {
			in, tgt, err := valL.Next()
			if err != nil {
				return 0, err
			}
			l, err := m.Loss(ctx, in, tgt, *b, *n, dt)
			if err != nil {
				return 0, oomHint(err, c, *b, *n, *accum, dt)
			}
			sum += l
		}
		return sum / float64(*evalBatches), nil
	}
	start := time.Now()
	var ms runtime.MemStats
	for tr.Step < h.Steps {
		select {
		case <-stop:
			fmt.Println("interrupted: saving")
			if err := save("interrupted"); err != nil {
				return err
			}
			return writePlot(*out, rs, tr.Step)
		default:
		}
		t0 := time.Now()
		res, err := tr.TrainStep(ctx, trainL.Next, *b, *n, *accum)
		if err != nil {
			return fmt.Errorf("step %d: %w", tr.Step, oomHint(err, c, *b, *n, *accum, dt))
		}
		el := time.Since(t0)
		tps := float64(tokPerStep) / el.Seconds()
		ll := logLine{Step: tr.Step, Loss: res.Loss, LR: res.LR, GradNorm: res.GradNorm, MS: float64(el.Microseconds()) / 1e3, TokPerS: tps}
		mfu := "n/a"
		if peak > 0 {
			ll.MFU = c.FlopsPerToken() * tps / peak
			mfu = fmt.Sprintf("%.1f%%", 100*ll.MFU)
		}
		rs.Losses = append(rs.Losses, res.Loss)
		runtime.ReadMemStats(&ms)
		val := ""
		last := tr.Step == h.Steps || (*maxTime > 0 && time.Since(start) > *maxTime)
		if (*evalEvery > 0 && tr.Step%*evalEvery == 0) || last {
			v, err := evalNow()
			if err != nil {
				return err
			}
			ll.ValLoss = v
			rs.ValSteps, rs.ValLoss = append(rs.ValSteps, tr.Step), append(rs.ValLoss, v)
			val = fmt.Sprintf(" | val %.4f", v)
		}
		fmt.Printf("step %5d/%d | loss %.4f%s | lr %.2e | norm %.3f | %7.1f ms | %8.0f tok/s | MFU %s | mem %.2f GiB est. device, %.2f GiB host\n",
			tr.Step, h.Steps, res.Loss, val, res.LR, res.GradNorm, ll.MS, tps, mfu, gib(states+acts), gib(float64(ms.Sys)))
		if err := enc.Encode(ll); err != nil {
			return err
		}
		if (*saveEvery > 0 && tr.Step%*saveEvery == 0) || last {
			if err := save("scheduled"); err != nil {
				return err
			}
		}
		if last {
			break
		}
	}
	if err := writePlot(*out, rs, tr.Step); err != nil {
		return err
	}
	if tok != nil || c.VocabSize == 256 {
		if tok == nil {
			tok, _ = loadTokenizer("")
		}
		return printSamples(ctx, m, tok, []string{""}, 100, 0.8, 40, rand.New(rng), dt)
	}
	return nil
}
