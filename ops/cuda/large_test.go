package cuda_test

import (
	"context"
	"math"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

// TestLargeTensors (-cuda.large) uses a float32 tensor of 2^31+64 elements
// (8 GiB), beyond 32-bit indexing: the vectorized, contiguous and strided
// elementwise kernels and Norm must reach its end.
func TestLargeTensors(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	if !*large {
		t.Skip("skipping the 8 GiB tensors; run with -cuda.large")
	}
	m := must(t)
	const n = 1<<31 + 64
	h := make([]float32, n)
	for i := range h {
		h[i] = float32(i%1000) * 0.001
	}
	// The last element is special, so reaching it shows.
	h[n-1] = 7
	x := m(ops.FromFloat32(h))
	h = nil
	g := m(x.To(ctx, dev))
	x.Free()

	rtol, atol := optest.Tolerance(ops.Float32)
	check := func(what string, got *ops.Tensor, idx []int, want func(i int) float64) {
		t.Helper()
		for _, i := range idx {
			v, err := m(got.Narrow(0, i, 1)).Item() // copies one element
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(v-want(i)) > rtol*math.Abs(want(i))+atol {
				t.Fatalf("%s: element %d = %v, want %v", what, i, v, want(i))
			}
		}
		got.Free()
	}
	src := func(i int) float64 {
		if i == n-1 {
			return 7
		}
		return float64(float32(i%1000) * 0.001)
	}
	idx := []int{0, 1, 1 << 31, n - 2, n - 1}
	// Contiguous, vectorized.
	check("AddScalar", m(ops.AddScalar(ctx, g, 1)), idx, func(i int) float64 { return src(i) + 1 })
	// Contiguous at an odd offset (scalar kernel).
	v := m(g.Narrow(0, 1, n-1))
	check("AddScalar at offset 1", m(ops.AddScalar(ctx, v, 1)), []int{0, 1 << 31, n - 2}, func(i int) float64 { return src(i+1) + 1 })
	// Strided with a 64-bit extent: every other element.
	s := m(m(g.Reshape(n/2, 2)).Narrow(1, 1, 1))
	check("AddScalar strided", m(ops.AddScalar(ctx, s, 1)), []int{0, 1 << 30, n/2 - 1}, func(i int) float64 { return src(2*i+1) + 1 })

	var all, odd float64
	for i := range n {
		f := src(i) * src(i)
		all += f
		if i%2 == 1 {
			odd += f
		}
	}
	compare(t, "Norm of 2^31+64", values(t, m(ops.Norm(ctx, g))), []float64{math.Sqrt(all)}, rtol, atol)
	compare(t, "Norm of 2^30+32 strided", values(t, m(ops.Norm(ctx, s))), []float64{math.Sqrt(odd)}, rtol, atol)
}
