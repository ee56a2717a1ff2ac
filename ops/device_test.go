package ops

import (
	"context"
	"runtime"
	"slices"
	"testing"
	"time"
)

func TestToDeviceRoundTrip(t *testing.T) {
	ctx := context.Background()
	m := must(t)
	for _, dtype := range dtypes {
		for _, kind := range []string{kContig, kTransposed, kNarrowed, kStrided} {
			data := roundTo(dtype, randData(70, 35, -1, 1))
			x := makeView(t, dtype, data, []int{7, 5}, kind)
			allocs := fakeCUDA.allocs.Load()
			c := m(x.To(ctx, CUDA(0)))
			if c.Device() != CUDA(0) || c.DType() != dtype || !slices.Equal(c.Shape(), []int{7, 5}) {
				t.Fatalf("To: %v", c)
			}
			if _, ok := c.Storage().(*fakeStorage); !ok || fakeCUDA.allocs.Load() == allocs {
				t.Fatal("To did not allocate through the backend")
			}
			// Values come back through Float64s and To(CPU).
			closeTo(t, "Float64s on device", values(t, c), data, func(int) float64 { return 0 })
			h := m(c.To(ctx, CPU))
			closeTo(t, "To(CPU)", values(t, h), data, func(int) float64 { return 0 })
			// Non-contiguous device tensors: Contiguous and To go through
			// host memory since the fake backend has no Contiguous kernel.
			ct := m(c.Transpose(0, 1))
			cc := m(ct.Contiguous(ctx))
			if cc.Device() != CUDA(0) || !cc.IsContiguous() {
				t.Fatalf("Contiguous on device: %v", cc)
			}
			want := values(t, m(x.Transpose(0, 1)))
			closeTo(t, "device Contiguous", values(t, cc), want, func(int) float64 { return 0 })
			closeTo(t, "device transposed To(CPU)", values(t, m(ct.To(ctx, CPU))), want, func(int) float64 { return 0 })
			// Kernel dispatch on the device, with a strided input.
			nar := m(c.Narrow(1, 1, 3))
			got := m(AddScalar(ctx, nar, 2))
			if got.Device() != CUDA(0) {
				t.Fatal("AddScalar on cuda returned a tensor elsewhere")
			}
			wantAdd := values(t, m(AddScalar(ctx, m(x.Narrow(1, 1, 3)), 2)))
			closeTo(t, "fake cuda AddScalar", values(t, got), wantAdd, func(int) float64 { return 1e-7 })
		}
	}
}

func TestFreeReleasesDeviceMemory(t *testing.T) {
	ctx := context.Background()
	m := must(t)
	x := m(m(Zeros(Float32, 100)).To(ctx, CUDA(0)))
	v := m(x.Narrow(0, 10, 5))
	before := fakeCUDA.frees.Load()
	if err := v.Close(); err != nil { // Close on a view frees the shared storage
		t.Fatal(err)
	}
	if fakeCUDA.frees.Load() != before+1 {
		t.Fatal("Free did not call Backend.Free")
	}
	x.Free()
	if fakeCUDA.frees.Load() != before+1 {
		t.Fatal("storage freed twice")
	}
	if _, err := AddScalar(ctx, x, 1); err == nil {
		t.Fatal("op on freed device tensor succeeded")
	}
}

func TestFinalizerFreesDeviceMemory(t *testing.T) {
	ctx := context.Background()
	before := fakeCUDA.frees.Load()
	func() {
		x := must(t)(Zeros(Float64, 1000))
		for range 10 {
			must(t)(x.To(ctx, CUDA(0))) // dropped without Free
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for fakeCUDA.frees.Load() < before+10 {
		if time.Now().After(deadline) {
			t.Fatalf("cleanup freed %d of 10 unreachable device tensors", fakeCUDA.frees.Load()-before)
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}

// TestFreeDuringKernel checks that Free while a kernel uses the storage
// fails later uses at once but releases memory only after the kernel ends.
func TestFreeDuringKernel(t *testing.T) {
	ctx := context.Background()
	m := must(t)
	x := m(m(Zeros(Float64, 16)).To(ctx, CUDA(0)))
	started, release := make(chan struct{}), make(chan struct{})
	polyGate.Lock()
	polyGate.started, polyGate.release = started, release
	polyGate.Unlock()
	defer func() {
		polyGate.Lock()
		polyGate.started, polyGate.release = nil, nil
		polyGate.Unlock()
	}()
	done := make(chan error)
	go func() {
		_, err := Polynomial(ctx, x, 1, 1, 1, 1)
		done <- err
	}()
	<-started
	polyGate.Lock()
	polyGate.started = nil
	polyGate.Unlock()
	before := fakeCUDA.frees.Load()
	if err := x.Free(); err != nil {
		t.Fatal(err)
	}
	if fakeCUDA.frees.Load() != before {
		t.Fatal("storage released while a kernel was using it")
	}
	if _, err := AddScalar(ctx, x, 1); err == nil {
		t.Fatal("freed tensor still usable")
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if fakeCUDA.frees.Load() != before+1 {
		t.Fatal("storage not released after the kernel finished")
	}
}

func TestCrossDeviceAutograd(t *testing.T) {
	ctx := context.Background()
	m := must(t)
	x := m(FromFloat64([]float64{1, 2, 3}))
	x.SetRequiresGrad(true)
	c := m(x.To(ctx, CUDA(0)))
	c = m(AddScalar(ctx, c, 1)) // runs the fake CUDA kernel
	h := m(c.To(ctx, CPU))
	if err := m(Norm(ctx, h)).Backward(ctx); err != nil {
		t.Fatal(err)
	}
	g := x.Grad()
	if g.Device() != CPU {
		t.Fatalf("grad on %v", g.Device())
	}
	n := 29.0 // 2²+3²+4²
	closeTo(t, "grad", values(t, g), []float64{2 / sqrt(n), 3 / sqrt(n), 4 / sqrt(n)}, func(int) float64 { return 1e-15 })
}
