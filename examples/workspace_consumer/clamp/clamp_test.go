package clamp

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

// Exact in binary, so float32 and float64 agree on which elements are clamped.
const lo, hi = -0.25, 0.375

// forward and backward are the two ops for the op test kit (rules_cuda_go's ops/optest): each
// with its reference in float64, its number of inputs and its dtypes.
var (
	forward = optest.Spec{
		Name:   "Clamp",
		Call:   func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return Clamp(ctx, in[0], lo, hi) },
		Ref:    optest.Elementwise(func(v []float64) float64 { return min(max(v[0], lo), hi) }),
		Inputs: 1,
		DTypes: []ops.DType{ops.Float32, ops.Float64},
	}
	backward = optest.Spec{
		Name: "ClampBackward",
		Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			return ClampBackward(ctx, in[0], in[1], lo, hi)
		},
		Ref: optest.Elementwise(func(v []float64) float64 { // v = g, x
			if v[1] >= lo && v[1] <= hi {
				return v[0]
			}
			return 0
		}),
		Inputs: 2,
		DTypes: []ops.DType{ops.Float32, ops.Float64},
	}
)

// TestClamp checks the op against its reference on both dtypes and every layout, its gradient
// (GradCheck), its errors, and the same on the GPU, on the default stream and on one of its own.
func TestClamp(t *testing.T) { optest.Run(t, forward) }

// TestClampBackward checks the backward op the same way; its GradCheck is Clamp's second
// derivative.
func TestClampBackward(t *testing.T) { optest.Run(t, backward) }

// TestClampSpecialValues checks the bounds, infinities and NaN.
func TestClampSpecialValues(t *testing.T) {
	ctx := context.Background()
	x, _ := ops.FromFloat64([]float64{math.Inf(-1), lo, 0, hi, math.Inf(1), math.NaN()}, 6)
	check := func(what string, y *ops.Tensor, err error, want []float64) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		got, _ := y.Float64s()
		if err := optest.Compare(got, want, 0, 0); err != nil {
			t.Errorf("%s: %v", what, err)
		}
	}
	y, err := Clamp(ctx, x, lo, hi)
	check("Clamp", y, err, []float64{lo, lo, 0, hi, hi, math.NaN()})
	// The bounds themselves are inside: the gradient passes there (as in PyTorch).
	g, _ := ops.Full(1, ops.Float64, 6)
	gx, err := ClampBackward(ctx, g, x, lo, hi)
	check("ClampBackward", gx, err, []float64{0, 1, 1, 1, 0, 0})
	// Unbounded on one side.
	y, err = Clamp(ctx, x, math.Inf(-1), 0)
	check("Clamp(-Inf, 0)", y, err, []float64{math.Inf(-1), lo, 0, 0, 0, math.NaN()})
}

// TestClampArgs checks what is the op's own: its bounds and its two inputs' shapes.
func TestClampArgs(t *testing.T) {
	ctx := context.Background()
	x, _ := ops.Zeros(ops.Float32, 3)
	for _, b := range [][2]float64{{1, -1}, {math.NaN(), 1}, {0, math.NaN()}} {
		if _, err := Clamp(ctx, x, b[0], b[1]); !errors.Is(err, ops.ErrArg) {
			t.Errorf("Clamp(x, %v, %v) = %v, want ErrArg", b[0], b[1], err)
		}
	}
	g, _ := ops.Zeros(ops.Float32, 4)
	if _, err := ClampBackward(ctx, g, x, lo, hi); !errors.Is(err, ops.ErrShape) {
		t.Errorf("ClampBackward(shape [4], shape [3]) = %v, want ErrShape", err)
	}
}

func BenchmarkClamp(b *testing.B) { optest.Benchmark(b, forward, []int{1 << 20}) }
