// Package swish is an activation written as a fused elementwise chain (rules_cuda_go's ops/fuse)
// instead of a hand-written kernel: swish(x) = x * sigmoid(beta * x). On a GPU a call is one
// kernel, generated from the chain and compiled at run time with NVRTC (cached in memory and on
// disk, so a new process loads it in about a millisecond); on the CPU the same chain runs in Go.
// Its backward is derived from the chain and fused too. There is no .cu file to build.
package swish

import (
	"context"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse"
	// The CUDA runner of fused chains; without a GPU, chains run on the CPU.
	_ "github.com/rules-cuda-go/rules_cuda_go/ops/fuse/fusecuda"
)

// chain is built once; beta is a scalar argument (Arg(0)), so a new beta never recompiles.
var chain = func() *fuse.Chain {
	x := fuse.In(0)
	return fuse.MustNew("swish", []fuse.Expr{x.Mul(fuse.Sigmoid(fuse.Arg(0).Mul(x)))}, fuse.Options{})
}()

// Swish returns x * sigmoid(beta * x): a new contiguous tensor of x's shape, dtype and device
// (x may be any of the four dtypes and any view), queued on the stream ctx chooses. When x
// requires grad, the result records one autograd node whose backward is one fused kernel.
func Swish(ctx context.Context, x *ops.Tensor, beta float64) (*ops.Tensor, error) {
	return chain.Call1(ctx, []*ops.Tensor{x}, beta)
}
