// Package leakyrelu adds a LeakyRelu op to the rules_cuda_go tensor library from outside its
// repository: CUDA kernels in leakyrelu.cu (a cu_library), and two ops registered with
// ops.RegisterOp, each with a CPU kernel (the fallback) and a CUDA kernel:
//
//	LeakyRelu(x, slope)                y = x if x > 0, else slope*x
//	LeakyReluBackward(g, x, slope)     g if x > 0, else slope*g (LeakyRelu's backward)
//
// Both record themselves for autograd; LeakyReluBackward is differentiable in g, so second
// derivatives work too.
package leakyrelu

// #include "leakyrelu/leakyrelu.h"
import "C"

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// The two ops, registered in init: LeakyRelu's backward calls LeakyReluBackward, whose own backward
// calls it again, so package-level initializers would form a cycle.
var leakyReluOp, leakyReluBackwardOp *ops.Op

func init() {
	leakyReluOp = ops.RegisterOp(ops.OpDef{
		Name: "LeakyRelu",
		Args: []ops.Arg{{Name: "x", Kind: ops.KindTensor}, {Name: "slope", Kind: ops.KindFloat}},
		Shape: func(in []*ops.Tensor, args ops.Args) ([]int, error) {
			if err := checkArgs(in[0], args.Floats[0]); err != nil {
				return nil, err
			}
			return in[0].Shape(), nil
		},
		// dy/dx = 1 where x > 0, slope elsewhere: the backward op, on the tensors' device.
		// With the forward's context: on a GPU, the backward runs on the forward's stream.
		Backward: func(ctx context.Context, g *ops.Tensor, in []*ops.Tensor, args ops.Args, _ *ops.Tensor) ([]*ops.Tensor, error) {
			gx, err := leakyReluBackwardOp.Call(ctx, []*ops.Tensor{g, in[0]}, args)
			return []*ops.Tensor{gx}, err
		},
		CPU: ops.ContiguousInputs(forwardCPU),
	})
	leakyReluBackwardOp = ops.RegisterOp(ops.OpDef{
		Name: "LeakyReluBackward",
		Args: []ops.Arg{{Name: "g", Kind: ops.KindTensor}, {Name: "x", Kind: ops.KindTensor}, {Name: "slope", Kind: ops.KindFloat}},
		Shape: func(in []*ops.Tensor, args ops.Args) ([]int, error) {
			if !slices.Equal(in[0].Shape(), in[1].Shape()) {
				return nil, &ops.OpError{Arg: "x", Kind: ops.ErrShape,
					Detail: fmt.Sprintf("x has shape %v, expected %v (same as g)", in[1].Shape(), in[0].Shape())}
			}
			if err := checkArgs(in[1], args.Floats[0]); err != nil {
				return nil, err
			}
			return in[0].Shape(), nil
		},
		// Linear in g (the same mask again); piecewise constant in x, so x gets no gradient.
		Backward: func(ctx context.Context, gg *ops.Tensor, in []*ops.Tensor, args ops.Args, _ *ops.Tensor) ([]*ops.Tensor, error) {
			ggx, err := leakyReluBackwardOp.Call(ctx, []*ops.Tensor{gg, in[1]}, args)
			return []*ops.Tensor{ggx, nil}, err
		},
		CPU: ops.ContiguousInputs(backwardCPU),
	})
	// The CUDA kernels, the way a backend package adds kernels for its device.
	leakyReluOp.RegisterKernel(ops.DeviceCUDA, ops.ContiguousInputs(forwardCUDA))
	leakyReluBackwardOp.RegisterKernel(ops.DeviceCUDA, ops.ContiguousInputs(backwardCUDA))
}

// checkArgs checks what both ops require of x (the dtypes of the kernels) and slope.
func checkArgs(x *ops.Tensor, slope float64) error {
	if d := x.DType(); d != ops.Float32 && d != ops.Float64 {
		return &ops.OpError{Arg: "x", Kind: ops.ErrDType, Detail: fmt.Sprintf("x has dtype %v, expected float32 or float64", d)}
	}
	if math.IsNaN(slope) || math.IsInf(slope, 0) {
		return &ops.OpError{Arg: "slope", Kind: ops.ErrArg, Detail: fmt.Sprintf("slope is %v, expected a finite number", slope)}
	}
	return nil
}

// LeakyRelu returns x where x > 0 and slope*x elsewhere, elementwise on x's device, queued where
// ctx says (with ops/cuda, on the stream of cuda.WithStream). It records itself for autograd.
func LeakyRelu(ctx context.Context, x *ops.Tensor, slope float64) (*ops.Tensor, error) {
	return leakyReluOp.Call(ctx, []*ops.Tensor{x}, ops.Args{Floats: []float64{slope}})
}

// LeakyReluBackward returns g where x > 0 and slope*g elsewhere: the gradient of LeakyRelu(x,
// slope) given the output gradient g. g and x must have one shape, device and dtype.
func LeakyReluBackward(ctx context.Context, g, x *ops.Tensor, slope float64) (*ops.Tensor, error) {
	return leakyReluBackwardOp.Call(ctx, []*ops.Tensor{g, x}, ops.Args{Floats: []float64{slope}})
}

func leakyCPU[T float32 | float64](y, x []T, slope T) {
	for i, v := range x {
		if v > 0 {
			y[i] = v
		} else {
			y[i] = slope * v
		}
	}
}

func maskCPU[T float32 | float64](gx, g, x []T, slope T) {
	for i, v := range x {
		if v > 0 {
			gx[i] = g[i]
		} else {
			gx[i] = slope * g[i]
		}
	}
}

// forwardCPU is LeakyRelu's CPU kernel: out is fresh and contiguous, and so is x (ops.ContiguousInputs).
func forwardCPU(_ context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	if out.DType() == ops.Float32 {
		leakyCPU(ops.HostView[float32](out), ops.HostView[float32](in[0]), float32(args.Floats[0]))
	} else {
		leakyCPU(ops.HostView[float64](out), ops.HostView[float64](in[0]), args.Floats[0])
	}
	return nil
}

// backwardCPU is LeakyReluBackward's CPU kernel.
func backwardCPU(_ context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	if out.DType() == ops.Float32 {
		maskCPU(ops.HostView[float32](out), ops.HostView[float32](in[0]), ops.HostView[float32](in[1]), float32(args.Floats[0]))
	} else {
		maskCPU(ops.HostView[float64](out), ops.HostView[float64](in[0]), ops.HostView[float64](in[1]), args.Floats[0])
	}
	return nil
}

// forwardCUDA is LeakyRelu's CUDA kernel: cuda.NewLaunch gives the op's stream (its context's), the C
// ABI's dtype code and the device addresses of out and x (contiguous: ops.ContiguousInputs).
func forwardCUDA(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	l, err := cuda.NewLaunch(ctx, out, in[0])
	if err != nil {
		return err
	}
	return l.Check("leakyrelu forward kernel", int(C.leakyrelu_forward(C.ulonglong(l.Stream), C.int(l.Device), C.int(l.DType),
		C.ulonglong(l.Ptr[1]), C.ulonglong(l.Ptr[0]), C.longlong(l.N), C.double(args.Floats[0]))))
}

// backwardCUDA is LeakyReluBackward's CUDA kernel (inputs g and x).
func backwardCUDA(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	l, err := cuda.NewLaunch(ctx, out, in[0], in[1])
	if err != nil {
		return err
	}
	return l.Check("leakyrelu backward kernel", int(C.leakyrelu_backward(C.ulonglong(l.Stream), C.int(l.Device), C.int(l.DType),
		C.ulonglong(l.Ptr[1]), C.ulonglong(l.Ptr[2]), C.ulonglong(l.Ptr[0]), C.longlong(l.N), C.double(args.Floats[0]))))
}
