package gpu

import (
	"context"
	"errors"
	"math"
	"os"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/inline"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit/jitload"
	"github.com/rules-cuda-go/rules_cuda_go/ops/examples/jitsilu"
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

// input returns a contiguous [rows, cols] tensor with values in [-8, 8) and its transpose.
func input(t *testing.T, dtype ops.DType, rows, cols int, dev ops.Device) []*ops.Tensor {
	t.Helper()
	x, err := ops.Rand(uint64(rows*7+cols), dtype, rows, cols)
	if err == nil {
		x, err = ops.AddScalar(x, -0.5)
	}
	if err == nil {
		x, err = ops.Axpby(16, x, 0, x)
	}
	if err == nil {
		x, err = x.To(dev)
	}
	if err != nil {
		t.Fatal(err)
	}
	xt, err := x.Transpose(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	return []*ops.Tensor{x, xt}
}

// near reports whether got is want rounded to dtype, up to an error of about 1e-14 of scale, the
// size of the terms the kernel adds (the device's exp and Go's differ in the last bit, which the
// cancellation in the backward's 1 + x*(1-s) near x = -1.28 magnifies).
func near(got, want, scale float64, dtype ops.DType) bool {
	tol := 1e-14
	if dtype == ops.Float32 {
		tol = 0x1p-23
	}
	return math.Abs(got-want) <= tol*math.Abs(want)+1e-14*scale
}

// terms returns the size of the terms of the backward, |g| * s * (1 + |x| * (1 - s)).
func terms(g, x float64) float64 {
	s := 1 / (1 + math.Exp(-x))
	return math.Abs(g) * s * (1 + math.Abs(x)*(1-s))
}

func TestSiLUOnGPU(t *testing.T) {
	requireGPU(t)
	dev := ops.CUDA(0)
	for _, dtype := range []ops.DType{ops.Float32, ops.Float64} {
		for _, shape := range [][2]int{{0, 3}, {1, 1}, {7, 5}, {1023, 3}, {1 << 10, 1<<10 + 3}} {
			for _, x := range input(t, dtype, shape[0], shape[1], dev) {
				y, err := jitsilu.SiLU(x)
				if err != nil {
					t.Fatalf("SiLU %v %v: %v", dtype, x.Shape(), err)
				}
				if y.Device() != dev {
					t.Fatalf("SiLU of a %v tensor ran on %v", dev, y.Device())
				}
				g, err := ops.Rand(5, dtype, x.Shape()...)
				if err == nil {
					g, err = g.To(dev)
				}
				if err != nil {
					t.Fatal(err)
				}
				gx, err := jitsilu.SiLUBackward(g, x)
				if err != nil {
					t.Fatalf("SiLUBackward %v %v: %v", dtype, x.Shape(), err)
				}
				xs, _ := x.Float64s()
				ys, err := y.Float64s()
				if err != nil {
					t.Fatal(err)
				}
				gs, _ := g.Float64s()
				gxs, err := gx.Float64s()
				if err != nil {
					t.Fatal(err)
				}
				for i, v := range xs {
					if want := jitsilu.Silu(v); !near(ys[i], want, math.Abs(v), dtype) {
						t.Fatalf("%v %v strides %v: y[%d] = %v, want %v", dtype, x.Shape(), x.Strides(), i, ys[i], want)
					}
					if want := gs[i] * jitsilu.SiluGrad(v); !near(gxs[i], want, terms(gs[i], v), dtype) {
						t.Fatalf("%v %v strides %v: gx[%d] = %v, want %v", dtype, x.Shape(), x.Strides(), i, gxs[i], want)
					}
				}
			}
		}
	}
}

func TestSiLUGradCheckOnGPU(t *testing.T) {
	requireGPU(t)
	for _, x := range input(t, ops.Float64, 5, 6, ops.CUDA(0)) {
		x = x.Detach()
		if err := x.SetRequiresGrad(true); err != nil {
			t.Fatal(err)
		}
		f := func(in []*ops.Tensor) (*ops.Tensor, error) { return jitsilu.SiLU(in[0]) }
		if err := ops.GradCheck(f, []*ops.Tensor{x}, ops.GradCheckOptions{}); err != nil {
			t.Errorf("GradCheck on the GPU, strides %v: %v", x.Strides(), err)
		}
	}
}

func TestSiLUBadInputOnGPU(t *testing.T) {
	requireGPU(t)
	xs := input(t, ops.Float32, 4, 3, ops.CUDA(0))
	cpu := input(t, ops.Float32, 4, 3, ops.CPU)
	x64 := input(t, ops.Float64, 4, 3, ops.CUDA(0))
	cases := []struct {
		name string
		err  error
		want error
	}{
		{"nil", func() error { _, err := jitsilu.SiLU(nil); return err }(), ops.ErrNil},
		{"shape mismatch", func() error { _, err := jitsilu.SiLUBackward(xs[0], xs[1]); return err }(), ops.ErrShape},
		{"device mismatch", func() error { _, err := jitsilu.SiLUBackward(cpu[0], xs[0]); return err }(), ops.ErrDevice},
		{"dtype mismatch", func() error { _, err := jitsilu.SiLUBackward(x64[0], xs[0]); return err }(), ops.ErrDType},
	}
	for _, c := range cases {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, c.err, c.want)
		}
	}
	freed := input(t, ops.Float32, 2, 2, ops.CUDA(0))[0]
	if err := freed.Free(); err != nil {
		t.Fatal(err)
	}
	if _, err := jitsilu.SiLU(freed); !errors.Is(err, ops.ErrFreed) {
		t.Errorf("SiLU(freed) = %v, want ErrFreed", err)
	}
}

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
	x := input(t, ops.Float64, 3, 333, ops.CUDA(0))[0]
	y, err := ops.Zeros(ops.Float64, 3, 333)
	if err == nil {
		y, err = y.To(ops.CUDA(0))
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Launch(inline.Dim3{X: 4}, inline.Dim3{X: 128}, 0, y, x, int64(x.Numel())); err != nil {
		t.Fatal(err)
	}
	if err := k.Launch(inline.Dim3{X: 1}, inline.Dim3{X: 1}, 0, y, x, "n"); err == nil {
		t.Errorf("Launch with a string argument succeeded")
	}
	xs, _ := x.Float64s()
	ys, err := y.Float64s()
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range xs {
		if !near(ys[i], jitsilu.Silu(v), math.Abs(v), ops.Float64) {
			t.Fatalf("PTX kernel: y[%d] = %v, want %v", i, ys[i], jitsilu.Silu(v))
		}
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

// TestSiLUOnStream runs the JIT kernels on a non-blocking stream chosen with cuda.WithStream,
// forward and backward (autograd runs the backward on the forward's stream), in order with ops
// on that stream and on the default stream.
func TestSiLUOnStream(t *testing.T) {
	requireGPU(t)
	s, err := cuda.NewStream(0)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := cuda.WithStream(context.Background(), s)
	for _, x := range input(t, ops.Float64, 257, 129, ops.CUDA(0)) { // made on the default stream
		xs, err := x.Float64s()
		if err != nil {
			t.Fatal(err)
		}
		x = x.Detach()
		if err := x.SetRequiresGrad(true); err != nil {
			t.Fatal(err)
		}
		y, err := jitsilu.SiLUContext(ctx, x)
		if err != nil {
			t.Fatal(err)
		}
		if st := y.Storage().(*cuda.Storage).Stream(); st != s {
			t.Fatalf("SiLU with a stream context wrote a tensor of %v, want %v", st, s)
		}
		z, err := ops.AddScalarContext(ctx, y, 0) // reads y on s
		if err != nil {
			t.Fatal(err)
		}
		n, err := ops.NormContext(ctx, z)
		if err == nil {
			err = n.Backward() // SiLUBackward runs on s, the forward's stream
		}
		if err != nil {
			t.Fatal(err)
		}
		ys, err := z.Float64s()
		if err != nil {
			t.Fatal(err)
		}
		gx, err := x.Grad().Float64s()
		if err != nil {
			t.Fatal(err)
		}
		norm := 0.0
		for _, v := range xs {
			norm += jitsilu.Silu(v) * jitsilu.Silu(v)
		}
		norm = math.Sqrt(norm)
		for i, v := range xs {
			if want := jitsilu.Silu(v); !near(ys[i], want, math.Abs(v), ops.Float64) {
				t.Fatalf("strides %v: y[%d] = %v, want %v", x.Strides(), i, ys[i], want)
			}
			if want := jitsilu.Silu(v) / norm * jitsilu.SiluGrad(v); math.Abs(gx[i]-want) > 1e-12*(1+math.Abs(want)) {
				t.Fatalf("strides %v: grad[%d] = %v, want %v", x.Strides(), i, gx[i], want)
			}
		}
	}
	if err := s.Synchronize(ctx); err != nil {
		t.Fatal(err)
	}
}
