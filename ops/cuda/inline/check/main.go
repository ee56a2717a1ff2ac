// Command check loads a fatbin with ops/cuda/inline, launches its kernel on CUDA tensors and
// compares the result with the CPU. It needs a GPU (gorgonia.org/cu exits at start without one);
// inline's go_test runs it and skips when it cannot start. Exit status 0 means PASS.
package main

import (
	_ "embed"
	"fmt"
	"os"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/inline"
)

//go:embed scale_add.fatbin
var image []byte

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "inline check: FAIL:", err)
		os.Exit(1)
	}
	fmt.Println("inline check: PASS")
}

func run() error {
	m, err := inline.Load(0, image)
	if err != nil {
		return err
	}
	defer m.Close()
	k, err := m.Kernel("scale_add")
	if err != nil {
		return err
	}
	if _, err := m.Kernel("no_such_kernel"); err == nil {
		return fmt.Errorf("Kernel(no_such_kernel) succeeded")
	}
	const n = 1<<20 + 3
	x, err := ops.Rand(7, ops.Float32, n)
	if err != nil {
		return err
	}
	xd, err := x.To(ops.CUDA(0))
	if err != nil {
		return err
	}
	// y starts as the CUDA result of an ops kernel, so ordering with ops/cuda's stream is exercised.
	yd, err := ops.AddScalar(xd, 1)
	if err != nil {
		return err
	}
	if err := k.Launch(inline.Dim3{X: 1024}, inline.Dim3{X: 256}, 0, yd, xd, float32(3), float32(0.5), int64(n)); err != nil {
		return err
	}
	if err := k.Launch(inline.Dim3{X: 1}, inline.Dim3{X: 1}, 0, yd, x, float32(1), float32(1), int64(1)); err == nil {
		return fmt.Errorf("Launch with a CPU tensor succeeded")
	}
	if err := k.Launch(inline.Dim3{X: 1}, inline.Dim3{X: 1}, 0, "oops"); err == nil {
		return fmt.Errorf("Launch with a string argument succeeded")
	}
	got, err := yd.Float32s()
	if err != nil {
		return err
	}
	want, err := x.Float32s()
	if err != nil {
		return err
	}
	for i := range want {
		if w := 3*want[i] + 0.5; got[i] != w {
			return fmt.Errorf("y[%d] = %v, want %v", i, got[i], w)
		}
	}
	fmt.Printf("inline check: scale_add on %d float32 elements matches the CPU\n", n)
	return nil
}
