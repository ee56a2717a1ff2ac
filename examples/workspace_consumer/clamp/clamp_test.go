package clamp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// Exact in binary, so float32 and float64 agree on which elements are clamped.
const lo, hi = -0.25, 0.375

// inputs returns a contiguous and a transposed (non-contiguous) view of the same data, in [-0.5, 0.5).
func inputs(t *testing.T, seed uint64, dtype ops.DType, rows, cols int) []*ops.Tensor {
	t.Helper()
	x, err := ops.Rand(seed, dtype, rows, cols)
	if err != nil {
		t.Fatal(err)
	}
	if x, err = ops.AddScalar(x, -0.5); err != nil {
		t.Fatal(err)
	}
	xt, err := x.Transpose(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	return []*ops.Tensor{x, xt}
}

// equal compares with a float64 reference: exact, since Clamp only selects values.
func equal(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d elements, want %d", what, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: element %d = %v, want %v", what, i, got[i], want[i])
		}
	}
}

// check runs Clamp and ClampBackward on x (and g, x's shape) on their device and compares them
// with the reference.
func check(t *testing.T, x, g *ops.Tensor) {
	t.Helper()
	xs, _ := x.Float64s()
	gs, _ := g.Float64s()
	y, err := Clamp(x, lo, hi)
	if err != nil {
		t.Fatalf("Clamp: %v", err)
	}
	if y.Device() != x.Device() {
		t.Fatalf("Clamp ran on %v, input on %v", y.Device(), x.Device())
	}
	want := make([]float64, len(xs))
	for i, v := range xs {
		want[i] = math.Min(math.Max(v, lo), hi)
	}
	got, _ := y.Float64s()
	equal(t, "Clamp "+x.Device().String(), got, want)

	gx, err := ClampBackward(g, x, lo, hi)
	if err != nil {
		t.Fatalf("ClampBackward: %v", err)
	}
	for i, v := range xs {
		want[i] = 0
		if lo <= v && v <= hi {
			want[i] = gs[i]
		}
	}
	got, _ = gx.Float64s()
	equal(t, "ClampBackward "+x.Device().String(), got, want)
}

var shapes = [][2]int{{0, 3}, {1, 1}, {7, 5}, {1023, 3}}

func TestClampCPU(t *testing.T) {
	for _, dtype := range []ops.DType{ops.Float32, ops.Float64} {
		for _, shape := range shapes {
			xs := inputs(t, 1, dtype, shape[0], shape[1])
			gs := inputs(t, 2, dtype, shape[0], shape[1])
			for i := range xs {
				check(t, xs[i], gs[i])
			}
		}
	}
}

func TestClampSpecialValues(t *testing.T) {
	x, _ := ops.FromFloat64([]float64{math.Inf(-1), lo, 0, hi, math.Inf(1), math.NaN()}, 6)
	y, err := Clamp(x, lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := y.Float64s()
	want := []float64{lo, lo, 0, hi, hi}
	equal(t, "Clamp", got[:5], want)
	if !math.IsNaN(got[5]) {
		t.Errorf("Clamp(NaN) = %v, want NaN", got[5])
	}
	// The bounds themselves are inside: the gradient passes there (as in PyTorch).
	g, _ := ops.Full(1, ops.Float64, 6)
	gx, err := ClampBackward(g, x, lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	got, _ = gx.Float64s()
	equal(t, "ClampBackward", got, []float64{0, 1, 1, 1, 0, 0})
	// Unbounded on one side.
	if y, err = Clamp(x, math.Inf(-1), 0); err != nil {
		t.Fatal(err)
	}
	got, _ = y.Float64s()
	equal(t, "Clamp(-Inf, 0)", got[:5], []float64{math.Inf(-1), lo, 0, 0, 0})
}

func TestClampGradCheck(t *testing.T) {
	for _, x := range inputs(t, 3, ops.Float64, 3, 4) {
		x = x.Detach()
		if err := x.SetRequiresGrad(true); err != nil {
			t.Fatal(err)
		}
		f := func(in []*ops.Tensor) (*ops.Tensor, error) { return Clamp(in[0], lo, hi) }
		if err := ops.GradCheck(f, []*ops.Tensor{x}, ops.GradCheckOptions{}); err != nil {
			t.Errorf("GradCheck Clamp %v: %v", x.Strides(), err)
		}
	}
	// The backward op is differentiable too (in g; x gets no gradient). g is a transposed view.
	g := inputs(t, 4, ops.Float64, 3, 4)[1].Detach()
	x := inputs(t, 5, ops.Float64, 4, 3)[0].Detach()
	_ = g.SetRequiresGrad(true)
	_ = x.SetRequiresGrad(true)
	f := func(in []*ops.Tensor) (*ops.Tensor, error) { return ClampBackward(in[0], in[1], lo, hi) }
	if err := ops.GradCheck(f, []*ops.Tensor{g, x}, ops.GradCheckOptions{}); err != nil {
		t.Errorf("GradCheck ClampBackward: %v", err)
	}
}

// Composes with the library's ops and autograd: the gradient of ops.Norm(Clamp(x)).
func TestClampWithLibraryOps(t *testing.T) {
	x := inputs(t, 6, ops.Float64, 4, 4)[0].Detach()
	_ = x.SetRequiresGrad(true)
	if err := ops.GradCheck(func(in []*ops.Tensor) (*ops.Tensor, error) {
		y, err := Clamp(in[0], lo, hi)
		if err != nil {
			return nil, err
		}
		return ops.Norm(y)
	}, []*ops.Tensor{x}, ops.GradCheckOptions{}); err != nil {
		t.Error(err)
	}
}

func TestClampCUDA(t *testing.T) {
	if ok, err := cuda.Available(); !ok {
		t.Skipf("no CUDA device, skipped the GPU part: %v", err)
	}
	for _, dtype := range []ops.DType{ops.Float32, ops.Float64} {
		for _, shape := range append(shapes, [2]int{1 << 10, 1<<10 + 3}) {
			xs := inputs(t, 7, dtype, shape[0], shape[1])
			gs := inputs(t, 8, dtype, shape[0], shape[1])
			for i := range xs {
				xd, err := xs[i].To(ops.CUDA(0))
				if err != nil {
					t.Fatal(err)
				}
				gd, err := gs[i].To(ops.CUDA(0))
				if err != nil {
					t.Fatal(err)
				}
				check(t, xd, gd)
			}
		}
	}
	// The backward runs on the GPU too.
	xd, err := inputs(t, 9, ops.Float64, 5, 6)[1].To(ops.CUDA(0))
	if err != nil {
		t.Fatal(err)
	}
	xd = xd.Detach()
	_ = xd.SetRequiresGrad(true)
	if err := ops.GradCheck(func(in []*ops.Tensor) (*ops.Tensor, error) { return Clamp(in[0], lo, hi) },
		[]*ops.Tensor{xd}, ops.GradCheckOptions{}); err != nil {
		t.Errorf("GradCheck on CUDA: %v", err)
	}
}

func TestClampBadInput(t *testing.T) {
	if _, err := Clamp(nil, lo, hi); !errors.Is(err, ops.ErrNil) {
		t.Errorf("Clamp(nil) = %v, want ErrNil", err)
	}
	x, _ := ops.Zeros(ops.Float32, 3)
	if _, err := Clamp(x, 1, -1); !errors.Is(err, ops.ErrArg) {
		t.Errorf("Clamp(x, 1, -1) = %v, want ErrArg", err)
	}
	if _, err := Clamp(x, math.NaN(), 1); !errors.Is(err, ops.ErrArg) {
		t.Errorf("Clamp(x, NaN, 1) = %v, want ErrArg", err)
	}
	g, _ := ops.Zeros(ops.Float32, 4)
	if _, err := ClampBackward(g, x, lo, hi); !errors.Is(err, ops.ErrShape) {
		t.Errorf("ClampBackward(shape [4], shape [3]) = %v, want ErrShape", err)
	}
	g64, _ := ops.Zeros(ops.Float64, 3)
	if _, err := ClampBackward(g64, x, lo, hi); !errors.Is(err, ops.ErrDType) {
		t.Errorf("ClampBackward(float64, float32) = %v, want ErrDType", err)
	}
	x.Free()
	if _, err := Clamp(x, lo, hi); !errors.Is(err, ops.ErrFreed) {
		t.Errorf("Clamp(freed) = %v, want ErrFreed", err)
	}
}

// TestClampOnStream runs Clamp on a non-blocking stream chosen with cuda.WithStream, on inputs
// made on the default stream, and its backward (which runs on the forward's stream), against the
// same computation on the CPU.
func TestClampOnStream(t *testing.T) {
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
		y, err := ClampContext(ctx, ds[0], -0.25, 0.25)
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
	in := inputs(t, 9, ops.Float64, 300, 301)[1:] // a transposed view
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
