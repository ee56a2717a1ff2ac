// Package chain holds the chain of small elementwise ops that the streams
// and fusion benchmarks time: 20 ops alternating y + 0.25 (ops.AddScalar)
// and y * 0.5 (ops.Scale), as PyTorch's side alternates `y + 0.25` and
// `y * 0.5`.
package chain

import (
	"context"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// Ops is the number of ops in the chain.
const Ops = 20

// Eager queues the chain's ops on x one at a time on the stream ctx
// chooses, freeing each intermediate result, and returns the last; x
// itself is kept.
func Eager(ctx context.Context, x *ops.Tensor) (*ops.Tensor, error) {
	y := x
	for i := range Ops {
		var z *ops.Tensor
		var err error
		if i%2 == 0 {
			z, err = ops.AddScalar(ctx, y, 0.25)
		} else {
			z, err = ops.Scale(ctx, y, 0.5)
		}
		if err != nil {
			if y != x {
				y.Free()
			}
			return nil, err
		}
		if y != x {
			y.Free()
		}
		y = z
	}
	return y, nil
}
