package cuda_test

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

// TestNoDevice checks the path without a usable GPU (no device, no
// driver, or a build without CUDA): the backend is registered, creating a
// CUDA tensor fails with ErrNoDevice and a clear message, and CPU ops work.
// With a GPU it checks the same for a device index that does not exist.
func TestNoDevice(t *testing.T) {
	ctx := context.Background()
	m := must(t)
	x := m(ops.FromFloat32([]float32{1, 2, 3}))
	n, cerr := cuda.DeviceCount()
	ok, aerr := cuda.Available()
	if ok != (n > 0) || (cerr == nil) != (aerr == nil) {
		t.Fatalf("Available() = %v, %v but DeviceCount() = %d, %v", ok, aerr, n, cerr)
	}
	missing := ops.CUDA(n) // the first index that does not exist
	if n == 0 {
		if cerr == nil || !errors.Is(cerr, cuda.ErrNoDevice) {
			t.Fatalf("DeviceCount() = 0, %v: want an error wrapping ErrNoDevice", cerr)
		}
		if !strings.Contains(cerr.Error(), "no CUDA device") {
			t.Fatalf("DeviceCount error %q does not say there is no CUDA device", cerr)
		}
		t.Logf("no CUDA device (%v): checking the no-device path", cerr)
		missing = ops.CUDA(0)
	} else {
		info, err := cuda.Info(0)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d CUDA device(s); cuda:0 is %s (sm_%d%d, %d SMs); checking the no-device path with %v", n, info.Name, info.Major, info.Minor, info.SMs, missing)
	}
	_, err := x.To(ctx, missing)
	if err == nil {
		t.Fatalf("To(%v) succeeded", missing)
	}
	if !errors.Is(err, cuda.ErrNoDevice) || errors.Is(err, ops.ErrNoBackend) {
		t.Fatalf("To(%v): %v: want an error wrapping cuda.ErrNoDevice (and a registered backend)", missing, err)
	}
	if !strings.Contains(err.Error(), "no CUDA device") {
		t.Fatalf("To(%v): %q does not say there is no CUDA device", missing, err)
	}
	t.Logf("To(%v): %v", missing, err)
	if err := ops.Synchronize(ctx, missing); !errors.Is(err, cuda.ErrNoDevice) {
		t.Fatalf("Synchronize(%v) = %v, want ErrNoDevice", missing, err)
	}
	if _, err := cuda.Info(missing.Index); !errors.Is(err, cuda.ErrNoDevice) {
		t.Fatalf("Info(%d) = %v, want ErrNoDevice", missing.Index, err)
	}
	// CPU ops still work.
	y := values(t, m(ops.Polynomial(ctx, x, 1, 0, 0, 1)))
	compare(t, "CPU Polynomial", y, []float64{2, 9, 28}, 0, 0)
}

func TestErrors(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	m := must(t)
	xc := m(ops.FromFloat32([]float32{1, 2, 3, 4}))
	x := m(xc.To(ctx, dev))
	y := m(xc.To(ctx, dev))

	// Mixed CPU and CUDA inputs.
	if _, err := ops.Axpby(ctx, 1, xc, 1, y); !errors.Is(err, ops.ErrDevice) {
		t.Fatalf("Axpby(cpu, cuda) = %v, want ErrDevice", err)
	} else {
		t.Log(err)
	}
	a := m(m(xc.Reshape(2, 2)).To(ctx, dev))
	if _, err := ops.MatMul(ctx, m(xc.Reshape(2, 2)), a); !errors.Is(err, ops.ErrDevice) {
		t.Fatalf("MatMul(cpu, cuda) = %v, want ErrDevice", err)
	}
	// Mixed dtypes on the GPU.
	x64 := m(m(ops.FromFloat64([]float64{1, 2, 3, 4})).To(ctx, dev))
	if _, err := ops.Axpby(ctx, 1, x, 1, x64); !errors.Is(err, ops.ErrDType) {
		t.Fatalf("Axpby(float32, float64) = %v, want ErrDType", err)
	}
	// Shapes.
	if _, err := ops.MatMul(ctx, a, m(m(ops.Zeros(ops.Float32, 3, 2)).To(ctx, dev))); !errors.Is(err, ops.ErrShape) {
		t.Fatalf("MatMul([2 2], [3 2]) = %v, want ErrShape", err)
	}
	// Freed tensors, and views of them.
	v := m(y.Narrow(0, 1, 2))
	if err := y.Free(); err != nil {
		t.Fatal(err)
	}
	if _, err := ops.AddScalar(ctx, y, 1); !errors.Is(err, ops.ErrFreed) {
		t.Fatalf("AddScalar(freed) = %v, want ErrFreed", err)
	}
	if _, err := ops.Norm(ctx, v); !errors.Is(err, ops.ErrFreed) {
		t.Fatalf("Norm(view of freed) = %v, want ErrFreed", err)
	}
	if _, err := ops.Axpby(ctx, 1, x, 1, y); !errors.Is(err, ops.ErrFreed) {
		t.Fatalf("Axpby(x, freed) = %v, want ErrFreed", err)
	}
	if _, err := y.Float64s(); !errors.Is(err, ops.ErrFreed) {
		t.Fatalf("Float64s(freed) = %v, want ErrFreed", err)
	}
	if err := y.Free(); err != nil {
		t.Fatalf("second Free: %v", err)
	}
	// x is unaffected.
	compare(t, "x after freeing y", values(t, x), []float64{1, 2, 3, 4}, 0, 0)
	if err := ops.Synchronize(ctx, dev); err != nil {
		t.Fatal(err)
	}
	// Storage.
	if st := x.Storage(); st.Len() != 4 || st.DType() != ops.Float32 || devicePtr(t, x) == 0 {
		t.Fatalf("storage of a CUDA tensor: %#v", st)
	}
	// Empty tensors have no device memory but work.
	e := m(m(ops.Zeros(ops.Float64, 0, 3)).To(ctx, dev))
	if st := e.Storage(); devicePtr(t, e) != 0 || st.Len() != 0 {
		t.Fatalf("empty storage %#v", st)
	}
	if v := values(t, m(ops.Norm(ctx, e))); v[0] != 0 {
		t.Fatalf("Norm(empty) = %v", v)
	}
	// An empty view may start past the end of its (empty) storage: [0 3] narrowed to [0 2] from
	// column 1 starts at element 1 of 0. It copies to the host and back like any other.
	ev := m(e.Narrow(1, 1, 2))
	if ev.Offset() != 1 {
		t.Fatalf("Narrow(1, 1, 2) of [0 3]: offset %d, want 1", ev.Offset())
	}
	if v := values(t, ev); len(v) != 0 {
		t.Fatalf("values of an empty view = %v", v)
	}
	if h := m(ev.To(ctx, ops.CPU)); h.Numel() != 0 {
		t.Fatalf("empty view to the CPU has %d elements", h.Numel())
	}
	if c := m(m(ops.Zeros(ops.Float64, 0, 2)).To(ctx, dev)); c.Numel() != 0 {
		t.Fatalf("an empty tensor to the GPU has %d elements", c.Numel())
	}
	if _, err := ev.AsType(ctx, ops.Float32); err != nil {
		t.Fatalf("AsType of an empty view: %v", err)
	}
}

// TestAllocFree allocates and frees many tensors, explicitly and through
// the garbage collector, and checks that memory is reused rather than
// exhausted: 64 GiB in 256 MiB pieces.
func TestAllocFree(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	m := must(t)
	const n = 64 << 20 // float32 elements: 256 MiB
	x := m(m(ops.Full(1, ops.Float32, n)).To(ctx, dev))
	for i := range 256 {
		y := m(ops.AddScalar(ctx, x, float64(i)))
		if i%2 == 0 {
			if err := y.Free(); err != nil {
				t.Fatal(err)
			}
		} else if i%16 == 1 {
			runtime.GC() // the cleanup frees the odd ones
		}
	}
	runtime.GC()
	if err := ops.Synchronize(ctx, dev); err != nil {
		t.Fatal(err)
	}
	v := values(t, m(ops.Norm(ctx, x)))[0]
	rtol, atol := optest.Tolerance(ops.Float32)
	compare(t, "Norm after churn", []float64{v}, []float64{math.Sqrt(n)}, rtol, atol)
}

// TestBlockCache checks that freed small blocks are reused by the next
// allocation of their size class, that the reused memory computes right,
// and that EmptyCache gives them back.
func TestBlockCache(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	m := must(t)
	ptr := func(x *ops.Tensor) uintptr { return devicePtr(t, x) }
	x := m(m(ops.Full(2, ops.Float32, 1000)).To(ctx, dev))
	x1 := m(m(ops.Full(5, ops.Float32, 1001)).To(ctx, dev))
	y := m(ops.AddScalar(ctx, x, 1))
	p := ptr(y)
	if err := y.Free(); err != nil {
		t.Fatal(err)
	}
	// 1001 float32 (4004 bytes) is in the size class of 1000 (4000 bytes:
	// both 4096), so AddScalar's output takes the block just freed.
	z := m(ops.AddScalar(ctx, x1, 1))
	if ptr(z) != p {
		t.Errorf("a freed 4000-byte block was not reused for 4004 bytes: %#x, then %#x", p, ptr(z))
	}
	compare(t, "AddScalar into a reused block", values(t, z), slices.Repeat([]float64{6}, 1001), 0, 0)
	z.Free()
	if err := cuda.EmptyCache(dev.Index); err != nil {
		t.Fatal(err)
	}
	w := m(ops.AddScalar(ctx, x, 3))
	compare(t, "AddScalar after EmptyCache", values(t, w), slices.Repeat([]float64{5}, 1000), 0, 0)
	if err := cuda.EmptyCache(99); !errors.Is(err, cuda.ErrNoDevice) {
		t.Errorf("EmptyCache(99) = %v, want an error wrapping ErrNoDevice", err)
	}
}

// TestConcurrentGPU runs ops, autograd and host copies from 16 goroutines
// at once on shared GPU inputs and compares each result with the CPU.
func TestConcurrentGPU(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	m := must(t)
	const G = 16
	xd, wd := randData(80, 32*48, -1, 1), randData(81, 48*16, -1, 1)
	big := fromData(t, ops.Float32, randData(82, 1<<20+5, -1, 1))
	bigT := m(m(m(big.Narrow(0, 5, 1<<20)).Reshape(1024, 1024)).Transpose(0, 1))

	loss := func(x, w *ops.Tensor) (*ops.Tensor, error) {
		p, err := ops.Polynomial(ctx, x, 0.1, 0.2, 1, 0)
		if err != nil {
			return nil, err
		}
		s, err := ops.RowSoftmax(ctx, p)
		if err != nil {
			return nil, err
		}
		mm, err := ops.MatMul(ctx, s, w)
		if err != nil {
			return nil, err
		}
		return ops.Norm(ctx, mm)
	}
	leaf := func(d []float64, shape []int, dv ops.Device) *ops.Tensor {
		l := m(fromData(t, ops.Float64, d, shape...).To(ctx, dv))
		l.SetRequiresGrad(true)
		return l
	}
	// CPU references.
	x1, w1 := leaf(xd, []int{32, 48}, ops.CPU), leaf(wd, []int{48, 16}, ops.CPU)
	l1 := m(loss(x1, w1))
	if err := l1.Backward(ctx); err != nil {
		t.Fatal(err)
	}
	refLoss, refX, refW := values(t, l1)[0], values(t, x1.Grad()), values(t, w1.Grad())
	refAx := values(t, m(ops.Axpby(ctx, 2, bigT, -1, bigT)))
	refMM := values(t, m(ops.MatMul(ctx, m(bigT.Narrow(0, 0, 64)), m(bigT.Narrow(1, 0, 64)))))

	x, w := leaf(xd, []int{32, 48}, dev), leaf(wd, []int{48, 16}, dev)
	f64rtol, _ := optest.Tolerance(ops.Float64)
	f32rtol, _ := optest.Tolerance(ops.Float32)
	gBig := m(m(m(m(big.To(ctx, dev)).Narrow(0, 5, 1<<20)).Reshape(1024, 1024)).Transpose(0, 1))
	var wg sync.WaitGroup
	errs := make(chan error, G)
	for g := range G {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- func() error {
				for it := range 4 {
					l, err := loss(x, w)
					if err != nil {
						return err
					}
					lv, err := l.Item()
					if err != nil {
						return err
					}
					if math.Abs(lv-refLoss) > f64rtol*math.Abs(refLoss) {
						return errors.New("loss differs from the CPU")
					}
					if err := l.Backward(ctx); err != nil {
						return err
					}
					var big *ops.Tensor
					if (g+it)%2 == 0 {
						big, err = ops.Axpby(ctx, 2, gBig, -1, gBig)
					} else {
						a, err1 := gBig.Narrow(0, 0, 64)
						b, err2 := gBig.Narrow(1, 0, 64)
						if err := errors.Join(err1, err2); err != nil {
							return err
						}
						big, err = ops.MatMul(ctx, a, b)
					}
					if err != nil {
						return err
					}
					v, err := big.Float64s()
					if err != nil {
						return err
					}
					big.Free()
					want, rtol := refAx, f32rtol
					if (g+it)%2 != 0 {
						// K = 1024 products summed in float32 in another order
						// than the CPU's: beyond one op's tolerance.
						want, rtol = refMM, 1e-4
					}
					for i := range v {
						if math.Abs(v[i]-want[i]) > rtol*(math.Abs(want[i])+1) {
							return errors.New("a concurrent result differs from the CPU")
						}
					}
				}
				return nil
			}()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	// G*4 backward passes accumulated into the same leaves.
	scaled := func(v []float64) []float64 {
		o := make([]float64, len(v))
		for i := range v {
			o[i] = v[i] * G * 4
		}
		return o
	}
	compare(t, "x.Grad after concurrent Backward", values(t, x.Grad()), scaled(refX), 1e-9, 1e-12)
	compare(t, "w.Grad after concurrent Backward", values(t, w.Grad()), scaled(refW), 1e-9, 1e-12)
}
