package gemm

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// Shapes m x n x k: odd sizes, one element, k = 256 (the largest the float32 tolerance covers),
// and empty products (k = 0 gives zeros; m = 0 an empty result).
var sizes = [][3]int{{1, 1, 1}, {17, 33, 9}, {128, 64, 256}, {3, 4, 0}, {0, 5, 2}}

// operands returns a (m x k) and b (k x n) with elements in [-0.5, 0.5). With transposed set, a is
// a transposed view of a k x m tensor (not contiguous), which the kernels must handle as well.
func operands(t *testing.T, seed uint64, dtype ops.DType, m, n, k int, transposed bool) (a, b *ops.Tensor) {
	t.Helper()
	rnd := func(seed uint64, rows, cols int) *ops.Tensor {
		x, err := ops.Rand(seed, dtype, rows, cols)
		if err == nil {
			x, err = ops.AddScalar(x, -0.5)
		}
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	if transposed {
		var err error
		if a, err = rnd(seed, k, m).Transpose(0, 1); err != nil {
			t.Fatal(err)
		}
	} else {
		a = rnd(seed, m, k)
	}
	return a, rnd(seed+1, k, n)
}

// reference returns a*b in float64 and, per element, sum_l |a_il|*|b_lj|: the scale of the
// rounding error of any evaluation order.
func reference(t *testing.T, a, b *ops.Tensor) (want, scale []float64) {
	t.Helper()
	m, k, n := a.Shape()[0], a.Shape()[1], b.Shape()[1]
	as, err := a.Float64s()
	if err != nil {
		t.Fatal(err)
	}
	bs, err := b.Float64s()
	if err != nil {
		t.Fatal(err)
	}
	want, scale = make([]float64, m*n), make([]float64, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			for l := 0; l < k; l++ {
				want[i*n+j] += as[i*k+l] * bs[l*n+j]
				scale[i*n+j] += math.Abs(as[i*k+l] * bs[l*n+j])
			}
		}
	}
	return want, scale
}

// tolerance relative to sum_l |a_il b_lj|. A length-k dot product summed in any order is within
// k*u of that sum (u: unit roundoff, 2^-24 for float32, 2^-53 for float64), plus u for rounding
// the result: for k <= 256, 1.5e-5 in float32 and 2.9e-14 in float64. The bounds below leave a
// factor of 6 and 35; a bound relative to |c_ij| alone would fail where the sum cancels. They
// assume plain FMA arithmetic: cuBLAS's default math mode (no TF32 for float32).
func tolerance(dtype ops.DType) float64 {
	if dtype == ops.Float32 {
		return 1e-4
	}
	return 1e-12
}

// check runs Gemm on a and b (on their device) and compares it with the float64 reference.
func check(t *testing.T, a, b *ops.Tensor) {
	t.Helper()
	m, k, n := a.Shape()[0], a.Shape()[1], b.Shape()[1]
	what := fmt.Sprintf("Gemm %v %v %dx%dx%d (a contiguous: %v)", a.Device(), a.DType(), m, n, k, a.IsContiguous())
	c, err := Gemm(a, b)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if c.Device() != a.Device() || c.Shape()[0] != m || c.Shape()[1] != n {
		t.Fatalf("%s: result on %v with shape %v, want %v and [%d %d]", what, c.Device(), c.Shape(), a.Device(), m, n)
	}
	got, err := c.Float64s()
	if err != nil {
		t.Fatal(err)
	}
	want, scale := reference(t, a, b)
	tol, worst := tolerance(a.DType()), 0.0
	for i := range want {
		d := math.Abs(got[i] - want[i])
		if d > tol*scale[i] || math.IsNaN(d) {
			t.Fatalf("%s: c[%d][%d] = %v, want %v (|diff| %.3g > %g * %.3g)", what, i/n, i%n, got[i], want[i], d, tol, scale[i])
		}
		if scale[i] > 0 {
			worst = math.Max(worst, d/scale[i])
		}
	}
	t.Logf("%s: max |diff|/sum|a||b| = %.3g (tolerance %g)", what, worst, tol)
}

func TestGemmCPU(t *testing.T) {
	for _, dtype := range []ops.DType{ops.Float32, ops.Float64} {
		for i, s := range sizes {
			for _, tr := range []bool{false, true} {
				a, b := operands(t, uint64(2*i+1), dtype, s[0], s[1], s[2], tr)
				check(t, a, b)
			}
		}
	}
}

func TestGemmGradCheck(t *testing.T) {
	a, b := operands(t, 20, ops.Float64, 3, 5, 4, true)
	a, b = a.Detach(), b.Detach()
	_ = a.SetRequiresGrad(true)
	_ = b.SetRequiresGrad(true)
	if err := ops.GradCheck(func(in []*ops.Tensor) (*ops.Tensor, error) { return Gemm(in[0], in[1]) },
		[]*ops.Tensor{a, b}, ops.GradCheckOptions{}); err != nil {
		t.Error(err)
	}
}

// toDevice copies a 2-D tensor to dev, keeping a transposed view transposed there (To makes a
// contiguous copy): the CUDA kernel gets a non-contiguous input too.
func toDevice(a *ops.Tensor, dev ops.Device) (*ops.Tensor, error) {
	if a.IsContiguous() {
		return a.To(dev)
	}
	base, err := a.Transpose(0, 1)
	if err != nil {
		return nil, err
	}
	if base, err = base.To(dev); err != nil {
		return nil, err
	}
	return base.Transpose(0, 1)
}

func TestGemmCUDA(t *testing.T) {
	if ok, err := cuda.Available(); !ok {
		t.Skipf("no CUDA device, skipped the cuBLAS GPU part: %v", err)
	}
	dev := ops.CUDA(0)
	for _, dtype := range []ops.DType{ops.Float32, ops.Float64} {
		for i, s := range sizes {
			for _, tr := range []bool{false, true} {
				a, b := operands(t, uint64(2*i+1), dtype, s[0], s[1], s[2], tr)
				ad, err := toDevice(a, dev)
				if err != nil {
					t.Fatal(err)
				}
				bd, err := b.To(dev)
				if err != nil {
					t.Fatal(err)
				}
				check(t, ad, bd)
			}
		}
	}
	// The backward runs on the GPU too (Gemm with transposed views of the inputs).
	a, b := operands(t, 21, ops.Float64, 4, 3, 5, false)
	ad, err := a.To(dev)
	if err != nil {
		t.Fatal(err)
	}
	bd, err := b.To(dev)
	if err != nil {
		t.Fatal(err)
	}
	ad, bd = ad.Detach(), bd.Detach()
	_ = ad.SetRequiresGrad(true)
	_ = bd.SetRequiresGrad(true)
	if err := ops.GradCheck(func(in []*ops.Tensor) (*ops.Tensor, error) { return Gemm(in[0], in[1]) },
		[]*ops.Tensor{ad, bd}, ops.GradCheckOptions{}); err != nil {
		t.Errorf("GradCheck on CUDA: %v", err)
	}
}

func TestGemmBadInput(t *testing.T) {
	a, _ := ops.Zeros(ops.Float32, 2, 3)
	b, _ := ops.Zeros(ops.Float32, 4, 2)
	if _, err := Gemm(a, b); !errors.Is(err, ops.ErrShape) {
		t.Errorf("Gemm([2 3], [4 2]) = %v, want ErrShape", err)
	}
	v, _ := ops.Zeros(ops.Float32, 3)
	if _, err := Gemm(a, v); !errors.Is(err, ops.ErrShape) {
		t.Errorf("Gemm([2 3], [3]) = %v, want ErrShape", err)
	}
	b64, _ := ops.Zeros(ops.Float64, 3, 2)
	if _, err := Gemm(a, b64); !errors.Is(err, ops.ErrDType) {
		t.Errorf("Gemm(float32, float64) = %v, want ErrDType", err)
	}
	if _, err := Gemm(nil, b64); !errors.Is(err, ops.ErrNil) {
		t.Errorf("Gemm(nil, b) = %v, want ErrNil", err)
	}
}

// TestGemmOnStream runs Gemm (cuBLAS) on a non-blocking stream chosen with cuda.WithStream, on inputs
// made on the default stream, and its backward (which runs on the forward's stream), against the
// same computation on the CPU.
func TestGemmOnStream(t *testing.T) {
	if ok, err := cuda.Available(); !ok {
		t.Skipf("no CUDA device, skipped the GPU part: %v", err)
	}
	s, err := cuda.NewStream(0)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := cuda.WithStream(context.Background(), s)
	// run computes f's output and the gradients of its L2 norm with respect to the inputs.
	run := func(ctx context.Context, dev ops.Device, in []*ops.Tensor) (out []float64, grads [][]float64) {
		t.Helper()
		var ds []*ops.Tensor
		for _, x := range in {
			d, err := x.To(dev)
			if err != nil {
				t.Fatal(err)
			}
			d = d.Detach()
			if err := d.SetRequiresGrad(true); err != nil {
				t.Fatal(err)
			}
			ds = append(ds, d)
		}
		y, err := GemmContext(ctx, ds[0], ds[1])
		if err != nil {
			t.Fatal(err)
		}
		if st, ok := y.Storage().(*cuda.Storage); ok && st.Stream() != cuda.StreamFrom(ctx, 0) {
			t.Fatalf("output on %v, want %v", st.Stream(), cuda.StreamFrom(ctx, 0))
		}
		n, err := ops.NormContext(ctx, y)
		if err == nil {
			err = n.Backward()
		}
		if err != nil {
			t.Fatal(err)
		}
		if out, err = y.Float64s(); err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			g, err := d.Grad().Float64s()
			if err != nil {
				t.Fatal(err)
			}
			grads = append(grads, g)
		}
		return out, grads
	}
	a, b := operands(t, 31, ops.Float64, 65, 33, 17, true)
	in := []*ops.Tensor{a, b}
	gotY, gotG := run(ctx, ops.CUDA(0), in)
	wantY, wantG := run(context.Background(), ops.CPU, in)
	near := func(what string, got, want []float64) {
		t.Helper()
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
				t.Fatalf("%s[%d] = %v on the GPU, %v on the CPU", what, i, got[i], want[i])
			}
		}
	}
	near("output", gotY, wantY)
	for i := range wantG {
		near(fmt.Sprintf("gradient %d", i), gotG[i], wantG[i])
	}
}
