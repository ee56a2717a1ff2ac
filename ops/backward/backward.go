// Package backward holds the backward ops of package ops's built-in ops:
// what their autograd runs, for op authors whose own BackwardFunc is made
// of them. The gradient of a square, for instance, is
//
//	gx, err := backward.Polynomial(ctx, g, x, 0, 1, 0) // g * 2x
//
// They are the ops of ops.Builtin (PolynomialBackward, NormBackward,
// RowSoftmaxBackward, NarrowBackward), registered like any other, with CPU
// and CUDA kernels, and none is itself differentiable.
package backward

import (
	"context"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// Polynomial returns gradOut * (3a*x² + 2b*x + c) elementwise, the
// gradient of ops.Polynomial with respect to x, in one fused pass.
func Polynomial(ctx context.Context, gradOut, x *ops.Tensor, a, b, c float64) (*ops.Tensor, error) {
	return ops.Builtin.PolynomialBackward.Call(ctx, []*ops.Tensor{gradOut, x}, ops.Args{Floats: []float64{a, b, c}})
}

// Norm returns gradOut * x / norm elementwise (0 where norm is 0): the
// gradient of norm = ops.Norm(x) with respect to x, for the 0-d gradOut of
// norm.
func Norm(ctx context.Context, gradOut, x, norm *ops.Tensor) (*ops.Tensor, error) {
	return ops.Builtin.NormBackward.Call(ctx, []*ops.Tensor{gradOut, x, norm}, ops.Args{})
}

// RowSoftmax returns y * (gradOut - rowsum(gradOut*y)): the gradient of
// y = ops.RowSoftmax(x) with respect to x, for the gradient gradOut of y
// ([B, D], like y).
func RowSoftmax(ctx context.Context, gradOut, y *ops.Tensor) (*ops.Tensor, error) {
	return ops.Builtin.RowSoftmaxBackward.Call(ctx, []*ops.Tensor{gradOut, y}, ops.Args{})
}

// Narrow returns zeros of gradOut's shape except along dim, where it has
// size elements, with gradOut at start..start+gradOut's size-1: the
// gradient of x.Narrow(dim, start, n) with respect to x, whose size along
// dim is size.
func Narrow(ctx context.Context, gradOut *ops.Tensor, dim, start, size int) (*ops.Tensor, error) {
	return ops.Builtin.NarrowBackward.Call(ctx, []*ops.Tensor{gradOut}, ops.Args{Ints: []int{dim, start, size}})
}
