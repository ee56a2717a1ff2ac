package cuda_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/internal/testkit"
)

// requireCuBLAS skips without a GPU and fails, with the loader's message,
// when there is a GPU but no cuBLASLt.
func requireCuBLAS(t *testing.T) {
	t.Helper()
	requireGPU(t)
	v, path, err := cuda.CuBLASInfo()
	if err != nil {
		t.Fatalf("GPU present but cuBLASLt not loadable: %v", err)
	}
	t.Logf("cuBLASLt %d from %s", v, path)
}

// mmRef returns the float64 product of a [M, K] and b [K, N] (row-major
// values) and sum_k |a_ik*b_kj| for error bounds.
func mmRef(a, b []float64, M, K, N int) (ref, abs []float64) {
	ref, abs = make([]float64, M*N), make([]float64, M*N)
	for i := range M {
		for j := range N {
			var s, t float64
			for k := range K {
				s += a[i*K+k] * b[k*N+j]
				t += math.Abs(a[i*K+k] * b[k*N+j])
			}
			ref[i*N+j], abs[i*N+j] = s, t
		}
	}
	return ref, abs
}

// checkMM fails unless |got - ref| <= tol*abs elementwise.
func checkMM(t *testing.T, what string, got, ref, abs []float64, tol float64) {
	t.Helper()
	if err := testkit.CompareEach(got, ref, func(i int) float64 { return tol*abs[i] + math.SmallestNonzeroFloat64 }); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// TestMatMulTF32: with SetAllowTF32(true) a float32 MatMul may round its
// inputs to TF32 (10-bit mantissa: relative error up to 2^-11 each, so
// 2^-10 per product; 2^-9 allows for truncation instead of rounding) and
// accumulates in float32 (K*2^-24), so the bound is (2^-9 + 2*K*2^-24) *
// sum_k |a_ik*b_kj|, about 1000x looser than IEEE float32's. The setting
// does not change float64.
func TestMatMulTF32(t *testing.T) {
	ctx := context.Background()
	requireCuBLAS(t)
	m := must(t)
	prev := cuda.SetAllowTF32(true)
	defer cuda.SetAllowTF32(prev)
	if !cuda.AllowTF32() {
		t.Fatal("AllowTF32() = false after SetAllowTF32(true)")
	}
	M, K, N := 127, 129, 65
	for _, dtype := range []ops.DType{ops.Float32, ops.Float64} {
		ad, bd := randData(1, M*K, -1, 1), randData(2, K*N, -1, 1)
		a, b := fromData(t, dtype, ad, M, K), fromData(t, dtype, bd, K, N)
		ref, abs := mmRef(values(t, a), values(t, b), M, K, N)
		got := values(t, m(ops.MatMul(ctx, m(a.To(ctx, dev)), m(b.To(ctx, dev)))))
		tol := 0x1p-9 + 2*float64(K)*0x1p-24
		if dtype == ops.Float64 {
			tol = 2 * float64(K) * 0x1p-53
		}
		checkMM(t, name("TF32 allowed, ", dtype), got, ref, abs, tol)
	}
}

// TestMatMulStreams runs MatMuls on non-default streams from several
// goroutines at once (one cuBLASLt handle per device, the stream per call)
// and checks each against the reference.
func TestMatMulStreams(t *testing.T) {
	requireCuBLAS(t)
	m := must(t)
	const M, K, N = 96, 200, 33
	type job struct {
		a, b     *ops.Tensor
		ref, abs []float64
	}
	jobs := make([]job, 4)
	for i := range jobs {
		a := fromData(t, ops.Float32, randData(uint64(10+i), M*K, -1, 1), M, K)
		b := fromData(t, ops.Float32, randData(uint64(20+i), K*N, -1, 1), K, N)
		ref, abs := mmRef(values(t, a), values(t, b), M, K, N)
		jobs[i] = job{m(a.To(context.Background(), dev)), m(m(b.To(context.Background(), dev)).Transpose(0, 1)), ref, abs}
	}
	var wg sync.WaitGroup
	errs := make([]error, len(jobs))
	outs := make([][]float64, len(jobs))
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := cuda.NewStream(dev.Index)
			if err != nil {
				errs[i] = err
				return
			}
			defer s.Close()
			ctx := cuda.WithStream(context.Background(), s)
			bt, err := j.b.Transpose(0, 1) // back to [K, N], a view with strides (1, K)
			if err != nil {
				errs[i] = err
				return
			}
			var c *ops.Tensor
			for range 20 {
				if c, err = ops.MatMul(ctx, j.a, bt); err != nil {
					errs[i] = err
					return
				}
			}
			if st, err := cuda.StreamOf(c); err != nil || st != s {
				errs[i] = fmt.Errorf("result belongs to %v, want %v", c.Storage(), s)
				return
			}
			outs[i], errs[i] = c.Float64s()
		}()
	}
	wg.Wait()
	for i, j := range jobs {
		if errs[i] != nil {
			t.Fatalf("goroutine %d: %v", i, errs[i])
		}
		checkMM(t, name("stream ", i), outs[i], j.ref, j.abs, 2*K*0x1p-24)
	}
}

// TestMatMulGraph captures MatMuls (one of a transposed view, one needing a
// copy, their workspace from the graph's pool) and checks that replays
// compute with the inputs' current values.
func TestMatMulGraph(t *testing.T) {
	requireCuBLAS(t)
	m := must(t)
	s := newStream(t)
	const M, K, N = 64, 48, 80
	a := m(fromData(t, ops.Float32, randData(1, M*K, -1, 1), M, K).To(context.Background(), dev))
	b := m(fromData(t, ops.Float32, randData(2, N*K, -1, 1), N, K).To(context.Background(), dev))
	chain := func(ctx context.Context) (*ops.Tensor, error) {
		bt, err := b.Transpose(0, 1)
		if err != nil {
			return nil, err
		}
		c, err := ops.MatMul(ctx, a, bt) // [M, N], B read transposed in place
		if err != nil {
			return nil, err
		}
		ct, err := c.Transpose(0, 1)
		if err != nil {
			return nil, err
		}
		return ops.MatMul(ctx, ct, a) // [N, K] from a transposed product
	}
	var out *ops.Tensor
	g, err := cuda.Capture(context.Background(), s, func(ctx context.Context) error {
		var err error
		out, err = chain(ctx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for round := range 3 {
		// New values in a, written in place, are what the next replay reads.
		pin, err := cuda.NewPinned(ops.Float32, M*K)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range randData(uint64(100+round), M*K, -1, 1) {
			pin.Float32()[i] = float32(v)
		}
		if err := cuda.CopyToDeviceAsync(context.Background(), a, pin); err != nil {
			t.Fatal(err)
		}
		want := values(t, m(chain(context.Background())))
		if err := g.Replay(); err != nil {
			t.Fatal(err)
		}
		compare(t, name("graph replay ", round), values(t, out), want, 0, 0)
		if err := pin.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMatMulErrorsNamed: an unloadable cuBLASLt is reported as ErrNoCuBLAS
// with the places tried; here only the error's plumbing is checked (the
// library is loaded once per process).
func TestMatMulErrorsNamed(t *testing.T) {
	requireGPU(t)
	if _, _, err := cuda.CuBLASInfo(); err != nil && !errors.Is(err, cuda.ErrNoCuBLAS) {
		t.Fatalf("CuBLASInfo error %v does not wrap ErrNoCuBLAS", err)
	}
}
