// Command jitcompile compiles a kernel with ops/cuda/jit (NVRTC) to a CUBIN and to PTX and says
// which NVRTC did it. It needs no GPU. Linked as needed, it NEEDs libnvrtc.so.<major> and no
// NVRTC builtins: run it where another release of the same major version is installed (say NVRTC
// 13.0 for a binary built with 13.2), copied without its runfiles, and it starts with that
// NVRTC, which loads its own builtins.
package main

import (
	"fmt"
	"os"

	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit"
)

const source = `extern "C" __global__ void twice(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}
`

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "jitcompile:", err)
		os.Exit(1)
	}
}

func run() error {
	v, err := jit.Version()
	if err != nil {
		return fmt.Errorf("NVRTC version: %w", err)
	}
	p := jit.Program{Name: "twice.cu", Source: source}
	for _, f := range []jit.Format{jit.CUBIN, jit.PTX} {
		im, err := jit.Compile(p, jit.ArchOf(7, 5), f)
		if err != nil {
			return fmt.Errorf("compiling twice.cu to %v: %w", f, err)
		}
		fmt.Printf("NVRTC %s: %v for %s, %d bytes\n", v, f, im.Arch, len(im.Code))
	}
	return nil
}
