// Command check loads a fatbin with ops/cuda/inline, launches its kernel on CUDA tensors and
// compares the result with the CPU. It needs a GPU (gorgonia.org/cu exits at start without one);
// inline's go_test runs it and skips when it cannot start. Exit status 0 means PASS.
package main

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"unsafe"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/inline"
	"gorgonia.org/cu"
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
	return onStream(k, x, n)
}

// onStream launches scale_add on a non-blocking stream chosen with cuda.WithStream, between ops
// on that stream and on the default stream, and checks the result.
func onStream(k *inline.Kernel, x *ops.Tensor, n int) error {
	// inline places a stream handle in a cu.Stream, which must be one CUstream.
	if unsafe.Sizeof(cu.Stream{}) != unsafe.Sizeof(uintptr(0)) {
		return fmt.Errorf("cu.Stream is %d bytes, want %d", unsafe.Sizeof(cu.Stream{}), unsafe.Sizeof(uintptr(0)))
	}
	s, err := cuda.NewStream(0)
	if err != nil {
		return err
	}
	defer s.Close()
	ctx := cuda.WithStream(context.Background(), s)
	xd, err := x.To(ops.CUDA(0)) // default stream
	if err != nil {
		return err
	}
	yd, err := ops.AddScalarContext(ctx, xd, 1) // on s, after the copy
	if err != nil {
		return err
	}
	// On s: y = 2*x + 1 (after AddScalar's y = x + 1 on s).
	if err := k.LaunchContext(ctx, inline.Dim3{X: 1024}, inline.Dim3{X: 256}, 0, yd, xd, float32(2), float32(1), int64(n)); err != nil {
		return err
	}
	zd, err := ops.AddScalar(yd, 0.25) // default stream: waits for s's launch on y
	if err != nil {
		return err
	}
	// A launch on the default stream that writes y, a tensor of s: s's later work waits for it.
	if err := k.Launch(inline.Dim3{X: 1024}, inline.Dim3{X: 256}, 0, yd, xd, float32(4), float32(0), int64(n)); err != nil {
		return err
	}
	wd, err := ops.AddScalarContext(ctx, yd, 0.5) // on s: 4*x + 0.5
	if err != nil {
		return err
	}
	other, err := cuda.NewStream(0)
	if err != nil {
		return err
	}
	defer other.Close()
	if err := k.LaunchOn(other, inline.Dim3{X: 1}, inline.Dim3{X: 1}, 0, yd, x, float32(1), float32(1), int64(1)); err == nil {
		return fmt.Errorf("LaunchOn with a CPU tensor succeeded")
	}
	z, err := zd.Float32s()
	if err != nil {
		return err
	}
	w, err := wd.Float32s()
	if err != nil {
		return err
	}
	want, err := x.Float32s()
	if err != nil {
		return err
	}
	for i := range want {
		if v := (2*want[i] + 1) + 0.25; z[i] != v {
			return fmt.Errorf("on a stream: z[%d] = %v, want %v", i, z[i], v)
		}
		if v := 4*want[i] + 0.5; w[i] != v {
			return fmt.Errorf("on a stream: w[%d] = %v, want %v", i, w[i], v)
		}
	}
	if err := cuda.Synchronize(ctx, ops.CUDA(0)); err != nil {
		return err
	}
	fmt.Printf("inline check: scale_add on %v, in order with ops on it and on the default stream\n", s)
	return nil
}
