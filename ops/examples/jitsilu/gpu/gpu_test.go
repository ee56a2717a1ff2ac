package gpu

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/cumodule"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit/jitload"
	"github.com/rules-cuda-go/rules_cuda_go/ops/examples/jitsilu"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

// The tests that launch kernels need a GPU and skip without one (requireGPU); TestNoDevice checks
// what happens then.

func TestMain(m *testing.M) {
	if os.Getenv(jit.CacheDirEnv) == "" {
		dir, err := os.MkdirTemp("", "jitsilu-cache")
		if err == nil {
			os.Setenv(jit.CacheDirEnv, dir)
			defer os.RemoveAll(dir)
		}
	}
	code := m.Run()
	if code != 0 {
		os.Exit(code)
	}
}

// requireGPU skips the test when there is no usable CUDA device (and fails it on any other
// error of cuda.DeviceCount).
func requireGPU(t *testing.T) {
	t.Helper()
	if _, err := cuda.DeviceCount(); errors.Is(err, cuda.ErrNoDevice) {
		t.Skipf("no CUDA device: %v", err)
	} else if err != nil {
		t.Fatal(err)
	}
}

// Without a usable device (here: none, or an index past the last), the op's module cannot be
// loaded and the error wraps cuda.ErrNoDevice, naming why.
func TestNoDevice(t *testing.T) {
	n, _ := cuda.DeviceCount()
	_, err := Module(n)
	if !errors.Is(err, cuda.ErrNoDevice) {
		t.Fatalf("Module(%d) with %d CUDA devices = %v, want an error wrapping cuda.ErrNoDevice", n, n, err)
	}
	t.Logf("Module(%d): %v", n, err)
}

// forward and backward are the two ops for the op test kit, over [-8, 8) where exp matters: on
// the CPU, and on the GPU where there is one (the kernels compiled with NVRTC on first use).
var (
	forward = optest.Spec{
		Name:   "SiLU",
		Call:   func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return jitsilu.SiLU(ctx, in[0]) },
		Ref:    optest.Elementwise(func(v []float64) float64 { return jitsilu.Silu(v[0]) }),
		Inputs: 1,
		DTypes: []ops.DType{ops.Float32, ops.Float64},
		Lo:     -8, Hi: 8,
	}
	backward = optest.Spec{
		Name: "SiLUBackward",
		Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			return jitsilu.SiLUBackward(ctx, in[0], in[1])
		},
		Ref:    optest.Elementwise(func(v []float64) float64 { return v[0] * jitsilu.SiluGrad(v[1]) }), // v = g, x
		Inputs: 2,
		DTypes: []ops.DType{ops.Float32, ops.Float64},
		NoGrad: true, // SiLUBackward has no backward
		Lo:     -8, Hi: 8,
	}
)

func TestSiLU(t *testing.T) { optest.Run(t, forward) }

func TestSiLUBackward(t *testing.T) { optest.Run(t, backward) }

// The module behind the op: a CUBIN for the device's own architecture, kernels by name expression.
func TestModule(t *testing.T) {
	requireGPU(t)
	m, err := Module(0)
	if err != nil {
		t.Fatal(err)
	}
	arch, err := jitload.DeviceArch(0)
	if err != nil {
		t.Fatal(err)
	}
	if im := m.Image(); im.Format != jit.CUBIN || im.Arch != arch {
		t.Errorf("module image: %v for %v, want a CUBIN for %v", im.Format, im.Arch, arch)
	}
	if _, err := m.Kernel("silu_forward<int>"); err == nil {
		t.Errorf("Kernel of an instantiation that was not compiled succeeded")
	}
	t.Logf("%s: NVRTC %s, %v for %v, %d bytes", m.Device(), m.Image().NVRTC, m.Image().Format, m.Image().Arch, len(m.Image().Code))
}

// PTX on request: the driver compiles it at load; the kernel computes the same.
func TestLoadPTX(t *testing.T) {
	requireGPU(t)
	cache := &jit.Cache{Dir: t.TempDir()}
	m, err := jitload.Load(0, jitsilu.Program(), jitload.Options{Cache: cache, Format: jit.PTX})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	k, err := m.Kernel(jitsilu.ForwardKernel(ops.Float64))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	x, err := ops.Rand(3, ops.Float64, 3, 333)
	if err == nil {
		x, err = x.To(ctx, ops.CUDA(0))
	}
	if err != nil {
		t.Fatal(err)
	}
	y, err := ops.Zeros(ops.Float64, 3, 333)
	if err == nil {
		y, err = y.To(ctx, ops.CUDA(0))
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Launch(ctx, cumodule.Dim3{X: 4}, cumodule.Dim3{X: 128}, 0, y, x, int64(x.Numel())); err != nil {
		t.Fatal(err)
	}
	if err := k.Launch(ctx, cumodule.Dim3{X: 1}, cumodule.Dim3{X: 1}, 0, y, x, "n"); err == nil {
		t.Errorf("Launch with a string argument succeeded")
	}
	xs, _ := x.Float64s()
	ys, err := y.Float64s()
	if err != nil {
		t.Fatal(err)
	}
	want := make([]float64, len(xs))
	for i, v := range xs {
		want[i] = jitsilu.Silu(v)
	}
	if err := optest.Compare(ys, want, 1e-14, 1e-14); err != nil {
		t.Fatalf("PTX kernel: %v", err)
	}
	// A second Load of the same program and format is a cache hit.
	m2, err := jitload.Load(0, jitsilu.Program(), jitload.Options{Cache: cache, Format: jit.PTX})
	if err != nil {
		t.Fatal(err)
	}
	m2.Close()
	if s := cache.Stats(); s.Compiles != 1 || s.Hits != 1 {
		t.Errorf("cache after two loads: %+v", s)
	}
}
