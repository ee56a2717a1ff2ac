// Package testtensor makes the test inputs of the tensor packages' tests as
// package ops's tensors: testkit's layouts on any device. ops/optest (View)
// and ops/fuse's tests use it; package ops's own tests, which cannot import
// ops from outside, use testkit directly.
package testtensor

import (
	"context"
	"math"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/internal/testkit"
)

// View returns a tensor of dtype on dev whose logical (row-major) values
// are data (rounded to dtype) and whose shape is shape, laid out as layout:
// a view of a larger contiguous tensor made on dev, whose elements outside
// the view are NaN (math.MinInt32 for ops.Int32, whose data must be
// integers). Copies to dev are made with ctx.
func View(ctx context.Context, dtype ops.DType, data []float64, shape []int, layout testkit.Layout, dev ops.Device) (*ops.Tensor, error) {
	return testkit.View(data, shape, layout, func(base []float64, shape []int) (*ops.Tensor, error) {
		if dtype == ops.Int32 {
			return int32Base(ctx, base, shape, dev)
		}
		b, err := ops.FromFloat64(base, shape...)
		if err == nil {
			b, err = b.AsType(ctx, dtype)
		}
		if err == nil {
			b, err = b.To(ctx, dev)
		}
		return b, err
	})
}

// int32Base is View's base tensor for ops.Int32: base's values as int32,
// NaN (unused storage) as math.MinInt32, on dev.
func int32Base(ctx context.Context, base []float64, shape []int, dev ops.Device) (*ops.Tensor, error) {
	v := make([]int32, len(base))
	for i, f := range base {
		v[i] = math.MinInt32
		if !math.IsNaN(f) {
			v[i] = int32(f)
		}
	}
	b, err := ops.FromInt32(v, shape...)
	if err == nil {
		b, err = b.To(ctx, dev)
	}
	return b, err
}
