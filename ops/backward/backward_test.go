package backward_test

import (
	"context"
	"slices"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/backward"
)

// TestOps: each function calls its op (the ops' own tests check them in
// every dtype, layout and device).
func TestOps(t *testing.T) {
	ctx := context.Background()
	x, _ := ops.FromFloat64([]float64{1, 2, 3, 4}, 2, 2)
	g, _ := ops.Full(1, ops.Float64, 2, 2)
	g0, _ := ops.Full(1, ops.Float64)
	for _, c := range []struct {
		name string
		f    func() (*ops.Tensor, error)
		want []float64
	}{
		{"Polynomial", func() (*ops.Tensor, error) { return backward.Polynomial(ctx, g, x, 0, 1, 0) }, []float64{2, 4, 6, 8}},
		{"Norm", func() (*ops.Tensor, error) {
			n, _ := ops.FromFloat64([]float64{2})
			n, _ = n.Reshape()
			return backward.Norm(ctx, g0, x, n)
		}, []float64{0.5, 1, 1.5, 2}},
		{"RowSoftmax", func() (*ops.Tensor, error) { return backward.RowSoftmax(ctx, g, x) }, []float64{-2, -4, -18, -24}},
		{"Narrow", func() (*ops.Tensor, error) { return backward.Narrow(ctx, g, 1, 1, 3) }, []float64{0, 1, 1, 0, 1, 1}},
	} {
		y, err := c.f()
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got, _ := y.Float64s(); !slices.Equal(got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, got, c.want)
		}
	}
}
