// Command gpt2 prepares data for, trains, evaluates and samples from GPT-2
// on the ops library (package models/gpt2), and writes the Go side of the
// PyTorch parity check.
//
//	gpt2 prepare -text kjv.txt -vocab DIR -out data/kjv        text -> llm.c token shards (train/val)
//	gpt2 train   -data data/kjv -out ckpt -device cuda -steps 5000 -batch 8 -seq 1024 -dtype bfloat16
//	gpt2 eval    -ckpt ckpt -data data/kjv -device cuda
//	gpt2 sample  -ckpt ckpt -vocab DIR -prompt "And God said" -n 100 -batch 4
//	gpt2 parity  -out parity -device cuda                      (then parity/parity.py)
//
// Each mode's -h lists its flags. docs/gpt2.md describes the whole workflow.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	modes := map[string]func([]string) error{
		"prepare": prepare, "train": train, "eval": eval, "sample": sample, "parity": parity,
	}
	// Under bazel run, relative paths are the caller's.
	if wd := os.Getenv("BUILD_WORKING_DIRECTORY"); wd != "" {
		if err := os.Chdir(wd); err != nil {
			fmt.Fprintln(os.Stderr, "gpt2:", err)
			os.Exit(1)
		}
	}
	f, ok := modes[os.Args[1]]
	if !ok {
		fmt.Fprintf(os.Stderr, "gpt2: unknown mode %q\n", os.Args[1])
		usage()
		os.Exit(2)
	}
	if err := f(os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "gpt2 "+os.Args[1]+":", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprint(os.Stderr, `usage: gpt2 MODE [flags]   (gpt2 MODE -h lists a mode's flags)
modes:
  prepare  tokenize text files into llm.c token shards (train and val)
  train    train (from scratch, a Hugging Face checkpoint, or -resume a run)
  eval     validation loss of a checkpoint
  sample   generate text from a checkpoint (key/value cache, top-k, temperature)
  parity   write the Go side of the PyTorch parity check (parity/parity.py reads it)
`)
}
