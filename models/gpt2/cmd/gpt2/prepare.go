package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2/bpe"
	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2/shard"
)

// tokenizer is GPT-2's BPE (with <|endoftext|> before each document) or,
// without a vocabulary, bytes (vocabulary 256, no separator).
type tokenizer struct {
	bpe *bpe.Tokenizer
	eot int32
}

func loadTokenizer(dir string) (*tokenizer, error) {
	if dir == "" {
		return &tokenizer{eot: -1}, nil
	}
	t, err := bpe.Load(filepath.Join(dir, "vocab.json"), filepath.Join(dir, "merges.txt"))
	if err != nil {
		return nil, fmt.Errorf("%w (models/gpt2/data/vocab.sh DIR fetches GPT-2's vocabulary)", err)
	}
	eot, ok := t.ID(bpe.EndOfText)
	if !ok {
		return nil, fmt.Errorf("vocabulary in %s has no %s", dir, bpe.EndOfText)
	}
	return &tokenizer{bpe: t, eot: eot}, nil
}

func (t *tokenizer) vocabSize() int {
	if t.bpe == nil {
		return 256
	}
	return t.bpe.VocabSize()
}

func (t *tokenizer) encode(s string) []int32 {
	if t.bpe == nil {
		ids := make([]int32, len(s))
		for i := 0; i < len(s); i++ {
			ids[i] = int32(s[i])
		}
		return ids
	}
	return t.bpe.Encode(s)
}

func (t *tokenizer) decode(ids []int32) (string, error) {
	if t.bpe == nil {
		b := make([]byte, len(ids))
		for i, id := range ids {
			if id < 0 || id > 255 {
				return "", fmt.Errorf("byte tokenizer: id %d is not a byte", id)
			}
			b[i] = byte(id)
		}
		return strings.ToValidUTF8(string(b), "\uFFFD"), nil
	}
	return t.bpe.Decode(ids)
}

func prepare(args []string) error {
	fs := flag.NewFlagSet("prepare", flag.ExitOnError)
	var texts multi
	fs.Var(&texts, "text", "a UTF-8 text file (repeatable); documents are separated by form-feed lines")
	vocab := fs.String("vocab", "", "folder with GPT-2's vocab.json and merges.txt (empty: byte tokens, vocabulary 256)")
	out := fs.String("out", "", "output folder for train_NNN.bin and val_NNN.bin")
	every := fs.Int("val-every", 20, "every Nth document (the last of each N) goes to the validation split")
	shardTokens := fs.Int("shard-tokens", 100_000_000, "tokens per shard at most")
	fs.Parse(args)
	if len(texts) == 0 || *out == "" {
		return fmt.Errorf("need -text and -out")
	}
	if *every < 2 {
		return fmt.Errorf("-val-every %d: need at least 2 (one document in N goes to validation)", *every)
	}
	tok, err := loadTokenizer(*vocab)
	if err != nil {
		return err
	}
	var docs []string
	for _, p := range texts {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, d := range strings.Split(string(b), "\f\n") {
			if strings.TrimSpace(d) != "" {
				docs = append(docs, d)
			}
		}
	}
	if len(docs) < *every {
		return fmt.Errorf("%d documents: fewer than -val-every %d, so the validation split would be empty", len(docs), *every)
	}
	var train, val []int32
	for i, d := range docs {
		ids := tok.encode(d)
		if tok.eot >= 0 {
			ids = append([]int32{tok.eot}, ids...)
		}
		if i%*every == *every-1 {
			val = append(val, ids...)
		} else {
			train = append(train, ids...)
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	for _, split := range []struct {
		name string
		toks []int32
	}{{"val", val}, {"train", train}} {
		for i := 0; i*(*shardTokens) < len(split.toks); i++ {
			part := split.toks[i*(*shardTokens) : min(len(split.toks), (i+1)*(*shardTokens))]
			p := filepath.Join(*out, fmt.Sprintf("%s_%03d.bin", split.name, i))
			if err := shard.Write(p, part); err != nil {
				return err
			}
			fmt.Printf("wrote %s: %d tokens\n", p, len(part))
		}
	}
	fmt.Printf("%d documents, vocabulary %d: %d train tokens, %d val tokens\n", len(docs), tok.vocabSize(), len(train), len(val))
	return nil
}

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

// shards returns the split's shards in dir (train_*.bin or val_*.bin).
func shards(dir, split string) ([]string, error) {
	ps, err := filepath.Glob(filepath.Join(dir, split+"_*.bin"))
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("no %s_*.bin shards in %s (gpt2 prepare writes them)", split, dir)
	}
	return ps, nil
}
