package swish

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

const beta = 1.702

// TestSwish checks the fused op with rules_cuda_go's op test kit: against its float64 reference in
// all four dtypes and every layout, its gradient (GradCheck through the fused backward), its
// errors, and the same on the GPU, on the default stream and on one of its own (skipped without a
// GPU).
func TestSwish(t *testing.T) {
	optest.Run(t, optest.Spec{
		Name: "Swish",
		Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return Swish(ctx, in[0], beta) },
		Ref: optest.Elementwise(func(v []float64) float64 {
			return v[0] / (1 + math.Exp(-beta*v[0]))
		}),
		Inputs: 1,
		Lo:     -4, Hi: 4,
	})
}

// TestSwishErrors: a nil tensor is an error naming the chain.
func TestSwishErrors(t *testing.T) {
	if _, err := Swish(context.Background(), nil, beta); !errors.Is(err, ops.ErrNil) {
		t.Errorf("Swish(nil) = %v, want ErrNil", err)
	}
}
