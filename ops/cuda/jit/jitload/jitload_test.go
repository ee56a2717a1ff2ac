package jitload_test

import (
	"context"
	"errors"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/cumodule"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit/jitload"
)

const scaleSource = `template <typename T>
__global__ void scale(T* y, const T* x, T a, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
`

func program() jit.Program {
	return jit.Program{Name: "scale.cu", Source: scaleSource, NameExpressions: []string{"scale<float>"}}
}

func TestBlocks(t *testing.T) {
	for _, c := range []struct{ n, threads, limit, want int }{
		{0, 256, 1024, 1}, {1, 256, 1024, 1}, {256, 256, 1024, 1}, {257, 256, 1024, 2}, {1 << 30, 256, 1024, 1024},
	} {
		if got, err := jitload.Blocks(c.n, c.threads, c.limit); err != nil || got != c.want {
			t.Errorf("Blocks(%d, %d, %d) = %d, %v, want %d", c.n, c.threads, c.limit, got, err, c.want)
		}
	}
	if _, err := jitload.Blocks(-1, 256, 1024); err == nil {
		t.Error("Blocks(-1, ...) succeeded")
	}
}

// Without a usable device (here: none, or an index past the last) Load fails with an error
// wrapping cuda.ErrNoDevice, whether it asks the device for its architecture or is told one (it
// then compiles, which needs no GPU, and fails to load).
func TestNoDevice(t *testing.T) {
	n, _ := cuda.DeviceCount()
	if _, err := jitload.DeviceArch(n); !errors.Is(err, cuda.ErrNoDevice) {
		t.Errorf("DeviceArch(%d) with %d CUDA devices = %v, want an error wrapping cuda.ErrNoDevice", n, n, err)
	}
	cache := &jit.Cache{Dir: t.TempDir()}
	for _, arch := range []jit.Arch{"", "sm_90"} {
		_, err := jitload.Load(n, program(), jitload.Options{Cache: cache, Arch: arch})
		if !errors.Is(err, cuda.ErrNoDevice) {
			t.Errorf("Load(%d, Arch %q) with %d CUDA devices = %v, want an error wrapping cuda.ErrNoDevice", n, arch, n, err)
		} else {
			t.Logf("Load(%d, Arch %q): %v", n, arch, err)
		}
	}
	lazy := &jitload.Lazy{Program: program(), Options: jitload.Options{Cache: cache}}
	if _, err := lazy.Module(n); !errors.Is(err, cuda.ErrNoDevice) {
		t.Errorf("Lazy.Module(%d) = %v, want an error wrapping cuda.ErrNoDevice", n, err)
	}
}

// Compile for GPU 0, load, launch on ops tensors, and check the result; needs a GPU.
func TestLoadAndLaunch(t *testing.T) {
	ctx := context.Background()
	if _, err := cuda.DeviceCount(); errors.Is(err, cuda.ErrNoDevice) {
		t.Skipf("no CUDA device: %v", err)
	} else if err != nil {
		t.Fatal(err)
	}
	lazy := &jitload.Lazy{Program: program(), Options: jitload.Options{Cache: &jit.Cache{Dir: t.TempDir()}}}
	m, err := lazy.Module(0)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if again, err := lazy.Module(0); err != nil || again != m {
		t.Errorf("a second Lazy.Module(0) = %p, %v, want the first module %p", again, err, m)
	}
	arch, err := jitload.DeviceArch(0)
	if err != nil {
		t.Fatal(err)
	}
	if im := m.Image(); im.Format != jit.CUBIN || im.Arch != arch || m.Device() != ops.CUDA(0) {
		t.Errorf("module: %v for %v on %v, want a CUBIN for %v on cuda:0", im.Format, im.Arch, m.Device(), arch)
	}
	k, err := m.Kernel("scale<float>")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Kernel("scale<double>"); err == nil {
		t.Error("Kernel of an instantiation that was not compiled succeeded")
	}
	const n = 100003
	x, err := ops.Rand(3, ops.Float32, n)
	if err != nil {
		t.Fatal(err)
	}
	xd, err := x.To(ctx, ops.CUDA(0))
	if err != nil {
		t.Fatal(err)
	}
	y, err := ops.Zeros(ops.Float32, n)
	if err != nil {
		t.Fatal(err)
	}
	yd, err := y.To(ctx, ops.CUDA(0))
	if err != nil {
		t.Fatal(err)
	}
	blocks, err := jitload.Blocks(n, 256, 1024) // 391: one thread per element, as scale needs
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Launch(ctx, cumodule.Dim3{X: blocks}, cumodule.Dim3{X: 256}, 0, yd, xd, float32(2), int64(n)); err != nil {
		t.Fatal(err)
	}
	got, err := yd.Float32s()
	if err != nil {
		t.Fatal(err)
	}
	want, err := x.Float32s()
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if got[i] != 2*want[i] {
			t.Fatalf("y[%d] = %v, want %v", i, got[i], 2*want[i])
		}
	}
}
