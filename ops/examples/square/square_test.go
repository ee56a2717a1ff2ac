package square

import (
	"context"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

// spec is Square for the op test kit: its reference in float64, one input, every dtype.
var spec = optest.Spec{
	Name:   "Square",
	Call:   func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return Square(ctx, in[0]) },
	Ref:    optest.Elementwise(func(v []float64) float64 { return v[0] * v[0] }),
	Inputs: 1,
}

// TestSquare checks Square against its reference on every dtype and layout, its gradient, its
// errors, and the same on the GPU, on the default stream and on a stream of its own.
func TestSquare(t *testing.T) { optest.Run(t, spec) }

func BenchmarkSquare(b *testing.B) { optest.Benchmark(b, spec, []int{1 << 20}) }
