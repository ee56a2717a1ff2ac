// Package gpu registers the CUDA kernels of the jitsilu example op: on first use on a device it
// compiles jitsilu.Source with NVRTC for that device (through the disk cache of ops/cuda/jit),
// loads it with ops/cuda/jit/jitload, and launches the kernels on the op's tensors.
//
// Like ops/cuda, it does not link the CUDA driver, so programs that import it start without a GPU.
// Without it, jitsilu's ops run on the CPU only.
package gpu

import (
	"context"
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/cumodule"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit/jitload"
	"github.com/rules-cuda-go/rules_cuda_go/ops/examples/jitsilu"
)

// threads per block, and the most blocks a grid-stride launch uses.
const (
	threads   = 256
	maxBlocks = 65535
)

// module is the compiled program, loaded once per device.
var module = &jitload.Lazy{Program: jitsilu.Program()}

func init() {
	// The kernels index their inputs linearly: ops.ContiguousInputs makes them contiguous.
	jitsilu.SiLUOp.RegisterKernel(ops.DeviceCUDA, ops.ContiguousInputs(forwardCUDA))
	jitsilu.SiLUBackwardOp.RegisterKernel(ops.DeviceCUDA, ops.ContiguousInputs(backwardCUDA))
}

// Module returns the op's compiled program on CUDA device n, compiling or loading it on first
// use: call it to move that cost out of the first op.
func Module(n int) (*jitload.Module, error) { return module.Module(n) }

func forwardCUDA(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	if err := jitsilu.CheckDType("SiLU", out.DType()); err != nil {
		return err
	}
	return launch(ctx, out, jitsilu.ForwardKernel(out.DType()), in)
}

func backwardCUDA(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	if err := jitsilu.CheckDType("SiLUBackward", out.DType()); err != nil {
		return err
	}
	return launch(ctx, out, jitsilu.BackwardKernel(out.DType()), in)
}

// launch runs kernel(out, in..., n) over out's elements on the op's stream (its context's); the
// inputs are contiguous.
func launch(ctx context.Context, out *ops.Tensor, kernel string, in []*ops.Tensor) error {
	n := out.Numel()
	if n == 0 {
		return nil
	}
	args := []any{out}
	for _, t := range in {
		args = append(args, t)
	}
	args = append(args, int64(n))
	m, err := module.Module(out.Device().Index)
	if err != nil {
		return fmt.Errorf("jitsilu: %w", err)
	}
	k, err := m.Kernel(kernel)
	if err != nil {
		return fmt.Errorf("jitsilu: %w", err)
	}
	blocks, err := jitload.Blocks(n, threads, maxBlocks)
	if err != nil {
		return err
	}
	return k.Launch(ctx, cumodule.Dim3{X: blocks}, cumodule.Dim3{X: threads}, 0, args...)
}
