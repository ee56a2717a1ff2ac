// Package clamp adds a Clamp op to the rules_cuda_go tensor library from a WORKSPACE-mode
// repository: CUDA kernels in clamp.cu (a cu_library), and two ops registered with ops.RegisterOp,
// each with a CPU kernel (the fallback) and a CUDA kernel:
//
//	Clamp(x, lo, hi)              y = min(max(x, lo), hi)
//	ClampBackward(g, x, lo, hi)   g where lo <= x <= hi, else 0 (Clamp's backward)
//
// Both record themselves for autograd; ClampBackward is differentiable in g, so second
// derivatives work too.
package clamp

// #include "clamp/clamp.h"
import "C"

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// The two ops, registered in init: Clamp's backward calls ClampBackward, whose own backward calls
// it again, so package-level initializers would form a cycle.
var clampOp, clampBackwardOp *ops.Op

func init() {
	clampOp = ops.RegisterOp(ops.OpDef{
		Name: "Clamp",
		Args: []ops.Arg{{Name: "x", Kind: ops.KindTensor}, {Name: "lo", Kind: ops.KindFloat}, {Name: "hi", Kind: ops.KindFloat}},
		Shape: func(in []*ops.Tensor, args ops.Args) ([]int, error) {
			if err := checkArgs(in[0], args.Floats[0], args.Floats[1]); err != nil {
				return nil, err
			}
			return in[0].Shape(), nil
		},
		// dy/dx = 1 inside [lo, hi], 0 outside: the backward op, on the tensors' device.
		// With the forward's context: on a GPU, the backward runs on the forward's stream.
		Backward: func(ctx context.Context, g *ops.Tensor, in []*ops.Tensor, args ops.Args, _ *ops.Tensor) ([]*ops.Tensor, error) {
			gx, err := clampBackwardOp.Call(ctx, []*ops.Tensor{g, in[0]}, args)
			return []*ops.Tensor{gx}, err
		},
		CPU: ops.ContiguousInputs(forwardCPU),
	})
	clampBackwardOp = ops.RegisterOp(ops.OpDef{
		Name: "ClampBackward",
		Args: []ops.Arg{
			{Name: "g", Kind: ops.KindTensor}, {Name: "x", Kind: ops.KindTensor},
			{Name: "lo", Kind: ops.KindFloat}, {Name: "hi", Kind: ops.KindFloat},
		},
		Shape: func(in []*ops.Tensor, args ops.Args) ([]int, error) {
			if !slices.Equal(in[0].Shape(), in[1].Shape()) {
				return nil, &ops.OpError{Arg: "x", Kind: ops.ErrShape,
					Detail: fmt.Sprintf("x has shape %v, expected %v (same as g)", in[1].Shape(), in[0].Shape())}
			}
			if err := checkArgs(in[1], args.Floats[0], args.Floats[1]); err != nil {
				return nil, err
			}
			return in[0].Shape(), nil
		},
		// Linear in g (the same mask again); piecewise constant in x, so x gets no gradient.
		Backward: func(ctx context.Context, gg *ops.Tensor, in []*ops.Tensor, args ops.Args, _ *ops.Tensor) ([]*ops.Tensor, error) {
			ggx, err := clampBackwardOp.Call(ctx, []*ops.Tensor{gg, in[1]}, args)
			return []*ops.Tensor{ggx, nil}, err
		},
		CPU: ops.ContiguousInputs(backwardCPU),
	})
	// The CUDA kernels, the way a backend package adds kernels for its device.
	clampOp.RegisterKernel(ops.DeviceCUDA, ops.ContiguousInputs(forwardCUDA))
	clampBackwardOp.RegisterKernel(ops.DeviceCUDA, ops.ContiguousInputs(backwardCUDA))
}

// checkArgs checks what both ops require of x (the dtypes of the kernels), lo and hi.
func checkArgs(x *ops.Tensor, lo, hi float64) error {
	if d := x.DType(); d != ops.Float32 && d != ops.Float64 {
		return &ops.OpError{Arg: "x", Kind: ops.ErrDType, Detail: fmt.Sprintf("x has dtype %v, expected float32 or float64", d)}
	}
	if math.IsNaN(lo) || math.IsNaN(hi) || lo > hi {
		return &ops.OpError{Arg: "lo", Kind: ops.ErrArg, Detail: fmt.Sprintf("lo = %v, hi = %v: expected lo <= hi", lo, hi)}
	}
	return nil
}

// Clamp returns x limited to [lo, hi] elementwise (NaN stays NaN), on x's device, queued where ctx
// says (with ops/cuda, on the stream of cuda.WithStream). It records itself for autograd. lo may
// be -Inf and hi +Inf.
func Clamp(ctx context.Context, x *ops.Tensor, lo, hi float64) (*ops.Tensor, error) {
	return clampOp.Call(ctx, []*ops.Tensor{x}, ops.Args{Floats: []float64{lo, hi}})
}

// ClampBackward returns g where lo <= x <= hi and 0 elsewhere: the gradient of Clamp(x, lo, hi)
// given the output gradient g. g and x must have one shape, device and dtype.
func ClampBackward(ctx context.Context, g, x *ops.Tensor, lo, hi float64) (*ops.Tensor, error) {
	return clampBackwardOp.Call(ctx, []*ops.Tensor{g, x}, ops.Args{Floats: []float64{lo, hi}})
}

func clampCPU[T float32 | float64](y, x []T, lo, hi T) {
	for i, v := range x {
		switch {
		case v < lo:
			y[i] = lo
		case v > hi:
			y[i] = hi
		default:
			y[i] = v
		}
	}
}

func maskCPU[T float32 | float64](gx, g, x []T, lo, hi T) {
	for i, v := range x {
		if v >= lo && v <= hi {
			gx[i] = g[i]
		} else {
			gx[i] = 0
		}
	}
}

// forwardCPU is Clamp's CPU kernel: out is fresh and contiguous, and so is x (ops.ContiguousInputs).
func forwardCPU(_ context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	if out.DType() == ops.Float32 {
		clampCPU(ops.HostView[float32](out), ops.HostView[float32](in[0]), float32(args.Floats[0]), float32(args.Floats[1]))
	} else {
		clampCPU(ops.HostView[float64](out), ops.HostView[float64](in[0]), args.Floats[0], args.Floats[1])
	}
	return nil
}

// backwardCPU is ClampBackward's CPU kernel.
func backwardCPU(_ context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	if out.DType() == ops.Float32 {
		maskCPU(ops.HostView[float32](out), ops.HostView[float32](in[0]), ops.HostView[float32](in[1]), float32(args.Floats[0]), float32(args.Floats[1]))
	} else {
		maskCPU(ops.HostView[float64](out), ops.HostView[float64](in[0]), ops.HostView[float64](in[1]), args.Floats[0], args.Floats[1])
	}
	return nil
}

// forwardCUDA is Clamp's CUDA kernel: cuda.NewLaunch gives the op's stream (its context's), the C
// ABI's dtype code and the device addresses of out and x (contiguous: ops.ContiguousInputs).
func forwardCUDA(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	l, err := cuda.NewLaunch(ctx, out, in[0])
	if err != nil {
		return err
	}
	return l.Check("clamp forward kernel", int(C.clamp_forward(C.ulonglong(l.Stream), C.int(l.Device), C.int(l.DType),
		C.ulonglong(l.Ptr[1]), C.ulonglong(l.Ptr[0]), C.longlong(l.N), C.double(args.Floats[0]), C.double(args.Floats[1]))))
}

// backwardCUDA is ClampBackward's CUDA kernel (inputs g and x).
func backwardCUDA(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	l, err := cuda.NewLaunch(ctx, out, in[0], in[1])
	if err != nil {
		return err
	}
	return l.Check("clamp backward kernel", int(C.clamp_backward(C.ulonglong(l.Stream), C.int(l.Device), C.int(l.DType),
		C.ulonglong(l.Ptr[1]), C.ulonglong(l.Ptr[2]), C.ulonglong(l.Ptr[0]), C.longlong(l.N), C.double(args.Floats[0]), C.double(args.Floats[1]))))
}
