// Package square is the worked example of adding an op: a CUDA kernel (square.cu) in a
// cu_library, and its registration with ops as "Square", with a CPU kernel (the fallback), a CUDA
// kernel and a backward. See docs/writing-ops.md.
package square

// #include "ops/examples/square/square.h"
import "C"

import (
	"context"
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/backward"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

// squareOp is the op's registration: schema, shape rule, backward and CPU kernel. The CUDA kernel
// is added in init, the way a backend package would add kernels for its device.
var squareOp = ops.RegisterOp(ops.OpDef{
	Name: "Square",
	Args: []ops.Arg{{Name: "x", Kind: ops.KindTensor}},
	Shape: func(in []*ops.Tensor, _ ops.Args) ([]int, error) {
		return in[0].Shape(), nil
	},
	// d(x²)/dx = 2x, computed with ops so it runs on the tensors' device:
	// PolynomialBackward(g, x, a=0, b=1, c=0) = g*(3*0*x² + 2*1*x + 0).
	// With the forward's context, so on a GPU it runs on the forward's stream.
	Backward: func(ctx context.Context, g *ops.Tensor, in []*ops.Tensor, _ ops.Args, _ *ops.Tensor) ([]*ops.Tensor, error) {
		gx, err := backward.Polynomial(ctx, g, in[0], 0, 1, 0)
		return []*ops.Tensor{gx}, err
	},
	// Both kernels index x linearly: ops.ContiguousInputs hands them x made contiguous.
	CPU: ops.ContiguousInputs(squareCPU),
})

func init() {
	squareOp.RegisterKernel(ops.DeviceCUDA, ops.ContiguousInputs(squareCUDA))
}

// Square returns x*x elementwise, on x's device, queued where ctx says (with ops/cuda, on the
// stream of cuda.WithStream); it records itself for autograd.
func Square(ctx context.Context, x *ops.Tensor) (*ops.Tensor, error) {
	return squareOp.Call(ctx, []*ops.Tensor{x}, ops.Args{})
}

// squareCPU is the CPU kernel: out is fresh and contiguous, and so is x. It dispatches over the
// four dtypes; the 16-bit ones compute in float32 and round the result to nearest even.
func squareCPU(_ context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	switch out.DType() {
	case ops.Float32:
		squareSlice(ops.HostView[float32](out), ops.HostView[float32](in[0]))
	case ops.Float64:
		squareSlice(ops.HostView[float64](out), ops.HostView[float64](in[0]))
	case ops.Float16:
		y, x := ops.HostView[half.Float16](out), ops.HostView[half.Float16](in[0])
		for i, v := range x {
			f := v.Float32()
			y[i] = half.Float16From(f * f)
		}
	case ops.BFloat16:
		y, x := ops.HostView[half.BFloat16](out), ops.HostView[half.BFloat16](in[0])
		for i, v := range x {
			f := v.Float32()
			y[i] = half.BFloat16From(f * f)
		}
	default:
		return fmt.Errorf("square: dtype %v: %w", out.DType(), ops.ErrDType)
	}
	return nil
}

func squareSlice[T float32 | float64](y, x []T) {
	for i, v := range x {
		y[i] = v * v
	}
}

// squareCUDA is the CUDA kernel: cuda.NewLaunch gives the op's stream (its context's), the C
// ABI's dtype code and the device addresses of out and x.
func squareCUDA(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	l, err := cuda.NewLaunch(ctx, out, in[0])
	if err != nil {
		return err
	}
	return l.Check("square kernel", int(C.square_launch(C.ulonglong(l.Stream), C.int(l.Device), C.int(l.DType),
		C.ulonglong(l.Ptr[1]), C.ulonglong(l.Ptr[0]), C.longlong(l.N))))
}
