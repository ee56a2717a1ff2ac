package main

import (
	"errors"
	"flag"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2"
	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// runFlags are the -device and -dtype flags of the modes that run the model.
type runFlags struct{ dev, dt *string }

func addRunFlags(fs *flag.FlagSet) runFlags {
	return runFlags{
		dev: fs.String("device", "cuda", "cpu, cuda or cuda:N"),
		dt:  fs.String("dtype", "bfloat16", "compute dtype: bfloat16 (float32 master weights) or float32"),
	}
}

func (f runFlags) parse() (ops.Device, ops.DType, error) {
	dev, err := parseDevice(*f.dev)
	if err != nil {
		return dev, ops.Float32, err
	}
	dt, err := parseDType(*f.dt)
	return dev, dt, err
}

// parseDevice reads "cpu", "cuda" or "cuda:N" and checks a GPU is there.
func parseDevice(s string) (ops.Device, error) {
	switch {
	case s == "cpu":
		return ops.CPU, nil
	case s == "cuda" || strings.HasPrefix(s, "cuda:"):
		n := 0
		if s != "cuda" {
			var err error
			if n, err = strconv.Atoi(strings.TrimPrefix(s, "cuda:")); err != nil {
				return ops.CPU, fmt.Errorf("-device %q: expected cpu, cuda or cuda:N", s)
			}
		}
		if ok, err := cuda.Available(); !ok {
			return ops.CPU, fmt.Errorf("-device %s: no CUDA device (%v); use -device cpu", s, err)
		}
		return ops.CUDA(n), nil
	}
	return ops.CPU, fmt.Errorf("-device %q: expected cpu, cuda or cuda:N", s)
}

func parseDType(s string) (ops.DType, error) {
	switch s {
	case "float32", "fp32", "f32":
		return ops.Float32, nil
	case "bfloat16", "bf16":
		return ops.BFloat16, nil
	}
	return ops.Float32, fmt.Errorf("-dtype %q: expected float32 or bfloat16", s)
}

// peakFlops returns the dense peak FLOP/s of dev in dtype (0 when unknown):
// the tensor-core bfloat16 rate, or the IEEE float32 rate (TF32 is off).
func peakFlops(dev ops.Device, dt ops.DType) (float64, string) {
	if dev == ops.CPU {
		return 0, fmt.Sprintf("CPU (%d threads)", runtime.GOMAXPROCS(0))
	}
	info, err := cuda.Info(dev.Index)
	if err != nil {
		return 0, "unknown GPU"
	}
	bf16, f32 := 0.0, 0.0
	switch {
	case strings.Contains(info.Name, "H100") && strings.Contains(info.Name, "PCIe"):
		bf16, f32 = 756e12, 51e12
	case strings.Contains(info.Name, "H100"), strings.Contains(info.Name, "H200"):
		bf16, f32 = 989e12, 67e12
	case strings.Contains(info.Name, "A100"):
		bf16, f32 = 312e12, 19.5e12
	}
	if dt == ops.BFloat16 {
		return bf16, info.Name
	}
	return f32, info.Name
}

// memoryNeed estimates the device memory of training a configuration with
// micro-batches of b x n tokens: the float32 weights, gradients and AdamW
// moments (16 bytes a parameter) and their compute-dtype copies, and what a
// micro-batch keeps until its backward has run: about 20 activations of
// width C per token and layer (the pass frees them after backward; the
// attention saves no T x T matrix, its backward recomputes it) and the
// padded logits with their view and gradient.
func memoryNeed(c gpt2.Config, b, n int, dt ops.DType) (states, acts float64) {
	es := float64(dt.Size())
	p := float64(c.NumParams() + int64((c.PaddedVocab-c.VocabSize)*c.Width))
	states = p * (16 + es)
	B, T, C, L, V := float64(b), float64(n), float64(c.Width), float64(c.Layers), float64(c.PaddedVocab)
	acts = L*20*B*T*C*es + 3*B*T*V*es
	return states, acts
}

func gib(x float64) float64 { return x / (1 << 30) }

// oomHint wraps an allocation failure with what the batch needs.
func oomHint(err error, c gpt2.Config, b, n, accum int, dt ops.DType) error {
	var ce *cuda.Error
	if !errors.As(err, &ce) || ce.Name != "cudaErrorMemoryAllocation" {
		return err
	}
	s, a := memoryNeed(c, b, n, dt)
	return fmt.Errorf("%w\nthe batch does not fit the GPU: a micro-batch of %d x %d tokens in %v needs about %.1f GiB "+
		"(%.1f GiB weights, gradients and AdamW state + %.1f GiB activations); use a smaller -batch with a larger -accum "+
		"(now %d) to keep the tokens per step", err, b, n, dt, gib(s+a), gib(s), gib(a), accum)
}
