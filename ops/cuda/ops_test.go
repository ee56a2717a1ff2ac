package cuda_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/backward"
	"github.com/rules-cuda-go/rules_cuda_go/ops/internal/testkit"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

// TestVectorTails checks the vectorized path and its scalar tail for every
// length mod 4 and a few alignments (contiguous views at offsets 0..3).
func TestVectorTails(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	m := must(t)
	for _, dtype := range dtypes {
		for n := 0; n <= 37; n++ {
			for off := 0; off < 4; off++ {
				base := fromData(t, dtype, randData(uint64(n), n+off, -1, 1))
				x := m(base.Narrow(0, off, n))
				gx := m(x.To(ctx, dev)) // a copy at offset 0
				gv := m(m(base.To(ctx, dev)).Narrow(0, off, n))
				want := values(t, m(ops.Polynomial(ctx, x, 1, -2, 3, -4)))
				rtol, atol := optest.Tolerance(dtype)
				compare(t, name("Polynomial aligned ", dtype, n, off), values(t, m(ops.Polynomial(ctx, gx, 1, -2, 3, -4))), want, rtol, atol)
				compare(t, name("Polynomial at offset ", dtype, n, off), values(t, m(ops.Polynomial(ctx, gv, 1, -2, 3, -4))), want, rtol, atol)
				wn := values(t, m(ops.Norm(ctx, x)))
				compare(t, name("Norm aligned ", dtype, n, off), values(t, m(ops.Norm(ctx, gx))), wn, rtol, 0)
				compare(t, name("Norm at offset ", dtype, n, off), values(t, m(ops.Norm(ctx, gv))), wn, rtol, 0)
			}
		}
	}
}

// TestNormLarge checks Norm of 2^28 float32 elements, contiguous and
// strided (every other element), against float64 sums on the host.
func TestNormLarge(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	if testing.Short() {
		t.Skip("skipping 2^28-element Norm under -short")
	}
	m := must(t)
	const n = 1 << 28
	x := m(ops.Rand(42, ops.Float32, n))
	h, err := x.Float32s()
	if err != nil {
		t.Fatal(err)
	}
	var all, even float64
	for i, v := range h {
		f := float64(v) * float64(v)
		all += f
		if i%2 == 0 {
			even += f
		}
	}
	h = nil
	g := m(x.To(ctx, dev))
	x.Free()
	got := values(t, m(ops.Norm(ctx, g)))[0]
	rtol, atol := optest.Tolerance(ops.Float32)
	compare(t, "Norm of 2^28 float32", []float64{got}, []float64{math.Sqrt(all)}, rtol, atol)
	// Deterministic: the same result again.
	if again := values(t, m(ops.Norm(ctx, g)))[0]; again != got {
		t.Fatalf("Norm is not deterministic: %v then %v", got, again)
	}
	s := m(m(g.Reshape(n/2, 2)).Narrow(1, 0, 1))
	gotEven := values(t, m(ops.Norm(ctx, s)))[0]
	compare(t, "Norm of 2^27 strided float32", []float64{gotEven}, []float64{math.Sqrt(even)}, rtol, atol)
	t.Logf("Norm of 2^28 float32: %.10g (float64 reference %.10g, rel. error %.2g)", got, math.Sqrt(all), math.Abs(got-math.Sqrt(all))/math.Sqrt(all))
}

// matShapes are [B, D] shapes for RowSoftmax and the (M, K) side of MatMul.
// Rows of up to 512 (float32: 1024) elements take a warp per row, longer
// ones a block per row holding the row in registers; unit-stride rows of
// 32 KiB or more are copied into shared memory (8192 float32 and 16384
// 16-bit elements exactly at the threshold, 9000 float32 with more rows than
// resident blocks, 16000), and rows too long for both take the
// block kernel that caches the row in shared memory or, for 70000 float64
// elements, reads it three times.
var matShapes = [][]int{{0, 5}, {5, 0}, {1, 1}, {7, 5}, {33, 65}, {257, 129}, {300, 260}, {3, 700}, {3, 1024}, {2, 1025}, {3, 3000}, {3, 8192}, {700, 9000}, {2, 16000}, {3, 16384}, {2, 70000}}

// TestRowSoftmaxOverflow checks the max-subtraction: rows with values
// near the float32 range limit give finite results.
func TestRowSoftmaxOverflow(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	m := must(t)
	for _, dtype := range dtypes {
		for _, d := range []int{3, 700, 2000} {
			data := make([]float64, 2*d)
			for i := range data {
				data[i] = 1e4 + float64(i%5)
			}
			x := fromData(t, dtype, data, 2, d)
			want := values(t, m(ops.RowSoftmax(ctx, x)))
			got := values(t, m(ops.RowSoftmax(ctx, m(x.To(ctx, dev)))))
			for i, v := range got {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("RowSoftmax %v D=%d: element %d is %v", dtype, d, i, v)
				}
			}
			rtol, atol := optest.Tolerance(dtype)
			compare(t, name("RowSoftmax large values ", dtype, " ", d), got, want, rtol, atol)
		}
	}
}

// matmulCase is a product [M, K] x [K, N].
var matmulCases = [][3]int{
	{0, 4, 5}, {4, 0, 5}, {4, 5, 0}, {1, 1, 1}, {3, 5, 7}, {7, 5, 3}, {33, 65, 17}, {64, 64, 64},
	{127, 129, 65}, {128, 128, 128}, {129, 8, 1}, {1, 9, 1}, {257, 129, 130}, {300, 260, 129}, {5, 1000, 3},
}

// TestMatMulMatchesCPU checks MatMul (cuBLAS, IEEE float32/float64) against
// a float64 reference in every layout: contiguous, transposed and narrowed
// views (read in place), a misaligned offset (cuBLAS told the alignment),
// and every other element (copied first).
func TestMatMulMatchesCPU(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	m := must(t)
	layouts := []optest.Layout{kContig, kOffset, kStrided, kTransposed, kNarrowed}
	for _, dtype := range dtypes {
		// The 16-bit dtypes compute in float32 (u = 2^-24) and round the
		// result once: add that rounding (the tolerance table's op column).
		u := testkit.For(ops.Float32).UnitRoundoff
		if dtype == ops.Float64 {
			u = testkit.For(ops.Float64).UnitRoundoff
		}
		hr, ha := 0.0, 0.0
		if isHalf(dtype) {
			hr, ha = optest.Tolerance(dtype)
		}
		for ci, c := range matmulCases {
			M, K, N := c[0], c[1], c[2]
			ad := randData(uint64(ci), M*K, -1, 1)
			bd := randData(uint64(ci+100), K*N, -1, 1)
			// Reference in float64 from the dtype-rounded inputs, and the error
			// bound 2*K*u*sum_k |a_ik||b_kj| (a bound on any summation order).
			ar, br := values(t, fromData(t, dtype, ad)), values(t, fromData(t, dtype, bd))
			ref := make([]float64, M*N)
			bound := make([]float64, M*N)
			for i := range M {
				for j := range N {
					var s, a float64
					for k := range K {
						s += ar[i*K+k] * br[k*N+j]
						a += math.Abs(ar[i*K+k] * br[k*N+j])
					}
					ref[i*N+j], bound[i*N+j] = s, 2*float64(K)*u*a+hr*math.Abs(s)+ha
				}
			}
			for _, la := range layouts {
				for _, lb := range layouts {
					what := fmt.Sprintf("MatMul %v [%d %d]x[%d %d] a %s, b %s", dtype, M, K, K, N, la, lb)
					av := makeView(t, dtype, ad, []int{M, K}, la)
					bv := makeView(t, dtype, bd, []int{K, N}, lb)
					got := m(ops.MatMul(ctx, av.gpu(t), bv.gpu(t)))
					checkOut(t, what, got, dev, dtype, []int{M, N})
					gv := values(t, got)
					cv := values(t, m(ops.MatMul(ctx, av.cpu(t), bv.cpu(t))))
					if err := testkit.CompareEach(gv, ref, func(i int) float64 { return bound[i] + math.SmallestNonzeroFloat64 }); err != nil {
						t.Fatalf("%s: %v (CPU kernel: %v)", what, err, testkit.CompareEach(cv, ref, func(i int) float64 { return bound[i] + math.SmallestNonzeroFloat64 }))
					}
				}
			}
		}
	}
}

func TestNarrowBackwardMatchesCPU(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	m := must(t)
	cases := []struct {
		shape            []int // gradOut's shape
		dim, start, size int
	}{
		{[]int{0}, 0, 2, 5}, {[]int{3}, 0, 0, 3}, {[]int{3}, 0, 2, 9}, {[]int{7, 5}, 1, 2, 9},
		{[]int{7, 5}, 0, 1, 8}, {[]int{4, 5, 6}, 1, 3, 8}, {[]int{4, 0, 6}, 1, 3, 8}, {[]int{33, 65}, 0, 100, 133},
		{[]int{2, 3, 4, 5}, 2, 1, 6},
	}
	for _, dtype := range dtypes {
		for ci, c := range cases {
			for _, kind := range kindsFor(c.shape) {
				what := fmt.Sprintf("NarrowBackward %v %v dim %d start %d size %d %s", dtype, c.shape, c.dim, c.start, c.size, kind)
				v := makeView(t, dtype, randData(uint64(ci), numel(c.shape), -1, 1), c.shape, kind)
				want := m(backward.Narrow(ctx, v.cpu(t), c.dim, c.start, c.size))
				got := m(backward.Narrow(ctx, v.gpu(t), c.dim, c.start, c.size))
				checkOut(t, what, got, dev, dtype, want.Shape())
				compare(t, what, values(t, got), values(t, want), 0, 0)
			}
		}
	}
}

// TestManyDims checks the strided kernels with up to 8 dimensions
// that cannot be merged, and the error beyond.
func TestManyDims(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	m := must(t)
	for _, dims := range []int{3, 5, 8, 9} {
		shape := make([]int, dims)
		for i := range shape {
			shape[i] = 3
		}
		n := numel(shape)
		x := fromData(t, ops.Float64, randData(uint64(dims), 2*n, -1, 1), append(shape[:dims-1:dims-1], 6)...)
		gx := m(x.To(ctx, dev))
		// Narrow the last dim to 3 and swap dims pairwise: nothing merges.
		view := func(t0 *ops.Tensor) *ops.Tensor {
			v := m(t0.Narrow(dims-1, 1, 3))
			for d := 0; d+1 < dims; d += 2 {
				v = m(v.Transpose(d, d+1))
			}
			return v
		}
		cv, gv := view(x), view(gx)
		want := values(t, m(ops.Polynomial(ctx, cv, 1, 2, 3, 4)))
		got, err := ops.Polynomial(ctx, gv, 1, 2, 3, 4)
		if dims > 8 {
			if err == nil {
				t.Fatalf("Polynomial of a %d-dim view that cannot be merged: no error", dims)
			}
			t.Logf("%d dims: %v", dims, err)
			continue
		}
		if err != nil {
			t.Fatalf("%d dims: %v", dims, err)
		}
		rtol, atol := optest.Tolerance(ops.Float64)
		compare(t, name("Polynomial ", dims, " dims"), values(t, got), want, rtol, atol)
		compare(t, name("Norm ", dims, " dims"), values(t, m(ops.Norm(ctx, gv))), values(t, m(ops.Norm(ctx, cv))), rtol, atol)
		compare(t, name("Contiguous ", dims, " dims"), values(t, m(gv.Contiguous(ctx))), values(t, cv), 0, 0)
	}
}

// TestFloatScalarsBitExact checks that float32 AddScalar and Scale, which
// compute in float when the scalar is a float (elementwise.cu), give the
// CPU's bits (computed in float64 and rounded once), with scalars that are
// floats and scalars that are not, on data with subnormals, huge values,
// infinities and NaN, over enough elements for the vectorized kernel's
// large blocks (2^20 vectors and more) and a tail.
func TestFloatScalarsBitExact(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	m := must(t)
	const n = 1<<22 + 3
	r := rand.New(rand.NewPCG(3, 5))
	data := make([]float32, n)
	for i := range data {
		switch i % 8 {
		case 0:
			data[i] = math.Float32frombits(r.Uint32() & 0x807fffff) // subnormal or zero
		case 1:
			data[i] = math.Float32frombits(r.Uint32()) // any bits: huge, tiny, Inf, NaN
		default:
			data[i] = float32(r.NormFloat64() * 1e3)
		}
	}
	x := m(ops.FromFloat32(data, n))
	gx := m(x.To(ctx, dev))
	scalars := []float64{0.75, -1.5, 0.1, 1.0 / 3, 1e-40, 3e38, 1e300, math.Inf(1), math.SmallestNonzeroFloat32}
	for _, s := range scalars {
		for _, o := range []*ops.Op{ops.Builtin.AddScalar, ops.Builtin.Scale} {
			op := o.Name()
			want, err := m(o.Call(ctx, []*ops.Tensor{x}, ops.Args{Floats: []float64{s}})).Float32s()
			if err != nil {
				t.Fatal(err)
			}
			g := m(o.Call(ctx, []*ops.Tensor{gx}, ops.Args{Floats: []float64{s}}))
			got, err := g.Float32s()
			if err != nil {
				t.Fatal(err)
			}
			g.Free()
			bad := 0
			for i := range want {
				w, v := want[i], got[i]
				if math.Float32bits(w) != math.Float32bits(v) && !(w != w && v != v) {
					if bad < 3 {
						t.Errorf("%s(%g) of %g (bits %#08x): got %g (%#08x), want %g (%#08x)", op, s, data[i], math.Float32bits(data[i]), v, math.Float32bits(v), w, math.Float32bits(w))
					}
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("%s(%g): %d of %d elements differ from the CPU", op, s, bad, n)
			}
		}
	}
}

// TestNormBackwardZeroNorm: where the norm is 0, NormBackward's gradient
// is 0 (not NaN), on the GPU as on the CPU (the conformance suite's norms
// are random, never 0).
func TestNormBackwardZeroNorm(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	m := must(t)
	for _, dtype := range dtypes {
		x := fromData(t, dtype, randData(5, 1023, -1, 1))
		g, zero := m(ops.Full(1.5, dtype)), m(ops.Zeros(dtype))
		want := values(t, m(backward.Norm(ctx, g, x, zero)))
		got := values(t, m(backward.Norm(ctx, m(g.To(ctx, dev)), m(x.To(ctx, dev)), m(zero.To(ctx, dev)))))
		compare(t, name("NormBackward with norm 0 ", dtype), got, want, 0, 0)
	}
}
