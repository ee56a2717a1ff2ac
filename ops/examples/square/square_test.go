package square

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// inputs returns a contiguous and a transposed (non-contiguous) view of the same data.
func inputs(t *testing.T, dtype ops.DType, rows, cols int) []*ops.Tensor {
	t.Helper()
	x, err := ops.Rand(uint64(rows*cols+1), dtype, rows, cols)
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

// dtypes are the four dtypes Square dispatches over.
var dtypes = []ops.DType{ops.Float32, ops.Float64, ops.Float16, ops.BFloat16}

// check compares Square(x) with a float64 reference: exact for float64, and within one rounding
// for the others (x*x is exact in float64, so the error is the rounding of the result: relative
// 2^-24 for float32, 2^-11 for float16 and 2^-8 for bfloat16, below 2^-23, 2^-10 and 2^-7; for
// float16 results under 2^-14, half the subnormal spacing, 2^-25, absolute).
func check(t *testing.T, x *ops.Tensor) {
	t.Helper()
	y, err := Square(x)
	if err != nil {
		t.Fatalf("Square: %v", err)
	}
	got, _ := y.Float64s()
	in, _ := x.Float64s()
	tol, atol := 0.0, 0.0
	switch x.DType() {
	case ops.Float32:
		tol = 0x1p-23
	case ops.Float16:
		tol, atol = 0x1p-10, 0x1p-25
	case ops.BFloat16:
		tol = 0x1p-7
	}
	for i, v := range in {
		if want := v * v; math.Abs(got[i]-want) > tol*want+atol {
			t.Fatalf("%v %v: y[%d] = %v, want %v", x.DType(), x.Shape(), i, got[i], want)
		}
	}
}

func TestSquareCPU(t *testing.T) {
	for _, dtype := range dtypes {
		for _, shape := range [][2]int{{0, 3}, {1, 1}, {7, 5}, {1023, 3}} {
			for _, x := range inputs(t, dtype, shape[0], shape[1]) {
				check(t, x)
			}
		}
	}
}

func TestSquareGradCheck(t *testing.T) {
	for _, x := range inputs(t, ops.Float64, 3, 4) {
		x = x.Detach()
		if err := x.SetRequiresGrad(true); err != nil {
			t.Fatal(err)
		}
		f := func(in []*ops.Tensor) (*ops.Tensor, error) { return Square(in[0]) }
		if err := ops.GradCheck(f, []*ops.Tensor{x}, ops.GradCheckOptions{}); err != nil {
			t.Errorf("GradCheck %v: %v", x.Strides(), err)
		}
	}
}

func TestSquareCUDA(t *testing.T) {
	if ok, err := cuda.Available(); !ok {
		t.Skipf("no CUDA device, skipped the GPU part: %v", err)
	}
	for _, dtype := range dtypes {
		for _, shape := range [][2]int{{0, 3}, {1, 1}, {7, 5}, {1 << 10, 1<<10 + 3}} {
			for _, x := range inputs(t, dtype, shape[0], shape[1]) {
				xd, err := x.To(ops.CUDA(0))
				if err != nil {
					t.Fatal(err)
				}
				check(t, xd)
			}
		}
	}
	// The backward runs on the GPU too.
	x := inputs(t, ops.Float64, 5, 6)[1]
	xd, _ := x.To(ops.CUDA(0))
	xd = xd.Detach()
	_ = xd.SetRequiresGrad(true)
	if err := ops.GradCheck(func(in []*ops.Tensor) (*ops.Tensor, error) { return Square(in[0]) },
		[]*ops.Tensor{xd}, ops.GradCheckOptions{}); err != nil {
		t.Errorf("GradCheck on CUDA: %v", err)
	}
}

// TestSquareOnStream runs Square on a non-blocking stream chosen with cuda.WithStream, on inputs
// made on the default stream, and its backward (on the forward's stream).
func TestSquareOnStream(t *testing.T) {
	if ok, err := cuda.Available(); !ok {
		t.Skipf("no CUDA device, skipped the GPU part: %v", err)
	}
	s, err := cuda.NewStream(0)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := cuda.WithStream(context.Background(), s)
	for _, x := range inputs(t, ops.Float64, 300, 301) {
		xd, err := x.To(ops.CUDA(0))
		if err != nil {
			t.Fatal(err)
		}
		xd = xd.Detach()
		if err := xd.SetRequiresGrad(true); err != nil {
			t.Fatal(err)
		}
		y, err := SquareContext(ctx, xd)
		if err != nil {
			t.Fatal(err)
		}
		if st := y.Storage().(*cuda.Storage).Stream(); st != s {
			t.Fatalf("Square with a stream context wrote a tensor of %v, want %v", st, s)
		}
		sum, err := ops.NormContext(ctx, y)
		if err == nil {
			err = sum.Backward() // d|x²|/dx = 2x·x²/|x²|, on s
		}
		if err != nil {
			t.Fatal(err)
		}
		in, _ := x.Float64s()
		got, err := y.Float64s()
		if err != nil {
			t.Fatal(err)
		}
		g, err := xd.Grad().Float64s()
		if err != nil {
			t.Fatal(err)
		}
		n := 0.0
		for _, v := range in {
			n += v * v * v * v
		}
		n = math.Sqrt(n)
		for i, v := range in {
			if got[i] != v*v {
				t.Fatalf("y[%d] = %v, want %v", i, got[i], v*v)
			}
			if want := 2 * v * v * v / n; math.Abs(g[i]-want) > 1e-12 {
				t.Fatalf("grad[%d] = %v, want %v", i, g[i], want)
			}
		}
	}
}

func TestSquareBadInput(t *testing.T) {
	if _, err := Square(nil); !errors.Is(err, ops.ErrNil) {
		t.Errorf("Square(nil) = %v, want ErrNil", err)
	}
	x, _ := ops.Zeros(ops.Float32, 3)
	x.Free()
	if _, err := Square(x); !errors.Is(err, ops.ErrFreed) {
		t.Errorf("Square(freed) = %v, want ErrFreed", err)
	}
}
