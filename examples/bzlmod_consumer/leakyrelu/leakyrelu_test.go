package leakyrelu

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

const slope = 0.125

func leaky(v float64) float64 {
	if v > 0 {
		return v
	}
	return slope * v
}

// forward and backward are the two ops for the op test kit (rules_cuda_go's ops/optest): each
// with its reference in float64, its number of inputs and its dtypes.
var (
	forward = optest.Spec{
		Name:   "LeakyRelu",
		Call:   func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return LeakyRelu(ctx, in[0], slope) },
		Ref:    optest.Elementwise(func(v []float64) float64 { return leaky(v[0]) }),
		Inputs: 1,
		DTypes: []ops.DType{ops.Float32, ops.Float64},
	}
	backward = optest.Spec{
		Name: "LeakyReluBackward",
		Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			return LeakyReluBackward(ctx, in[0], in[1], slope)
		},
		Ref: optest.Elementwise(func(v []float64) float64 { // v = g, x
			if v[1] > 0 {
				return v[0]
			}
			return slope * v[0]
		}),
		Inputs: 2,
		DTypes: []ops.DType{ops.Float32, ops.Float64},
	}
)

// TestLeakyRelu checks the op against its reference on both dtypes and every layout, its gradient
// (GradCheck), its errors, and the same on the GPU, on the default stream and on one of its own.
func TestLeakyRelu(t *testing.T) { optest.Run(t, forward) }

// TestLeakyReluBackward checks the backward op the same way; its GradCheck is LeakyRelu's second
// derivative.
func TestLeakyReluBackward(t *testing.T) { optest.Run(t, backward) }

// TestLeakyReluArgs checks what is the op's own: its slope and its two inputs' shapes.
func TestLeakyReluArgs(t *testing.T) {
	ctx := context.Background()
	x, _ := ops.Zeros(ops.Float32, 3)
	if _, err := LeakyRelu(ctx, x, math.NaN()); !errors.Is(err, ops.ErrArg) {
		t.Errorf("LeakyRelu(x, NaN) = %v, want ErrArg", err)
	}
	g, _ := ops.Zeros(ops.Float32, 4)
	if _, err := LeakyReluBackward(ctx, g, x, slope); !errors.Is(err, ops.ErrShape) {
		t.Errorf("LeakyReluBackward(shape [4], shape [3]) = %v, want ErrShape", err)
	}
}

func BenchmarkLeakyRelu(b *testing.B) { optest.Benchmark(b, forward, []int{1 << 20}) }
