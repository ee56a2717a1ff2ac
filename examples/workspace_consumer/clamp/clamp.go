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
		Args: []ops.Arg{{Name: "x", Kind: ops.KindTensor}, {Name: "lo", Kind: ops.KindScalar}, {Name: "hi", Kind: ops.KindScalar}},
		Shape: func(in []*ops.Tensor, sc []float64) ([]int, error) {
			if err := checkBounds(sc[0], sc[1]); err != nil {
				return nil, err
			}
			return in[0].Shape(), nil
		},
		// dy/dx = 1 inside [lo, hi], 0 outside: the backward op, on the tensors' device.
		// With the forward's context: on a GPU, the backward runs on the forward's stream.
		BackwardContext: func(ctx context.Context, g *ops.Tensor, in []*ops.Tensor, sc []float64, _ *ops.Tensor) ([]*ops.Tensor, error) {
			gx, err := clampBackwardOp.CallContext(ctx, []*ops.Tensor{g, in[0]}, sc)
			return []*ops.Tensor{gx}, err
		},
		CPU: forwardCPU,
	})
	clampBackwardOp = ops.RegisterOp(ops.OpDef{
		Name: "ClampBackward",
		Args: []ops.Arg{
			{Name: "g", Kind: ops.KindTensor}, {Name: "x", Kind: ops.KindTensor},
			{Name: "lo", Kind: ops.KindScalar}, {Name: "hi", Kind: ops.KindScalar},
		},
		Shape: func(in []*ops.Tensor, sc []float64) ([]int, error) {
			if !slices.Equal(in[0].Shape(), in[1].Shape()) {
				return nil, &ops.OpError{Arg: "x", Kind: ops.ErrShape,
					Detail: fmt.Sprintf("x has shape %v, expected %v (same as g)", in[1].Shape(), in[0].Shape())}
			}
			if err := checkBounds(sc[0], sc[1]); err != nil {
				return nil, err
			}
			return in[0].Shape(), nil
		},
		// Linear in g (the same mask again); piecewise constant in x, so x gets no gradient.
		BackwardContext: func(ctx context.Context, gg *ops.Tensor, in []*ops.Tensor, sc []float64, _ *ops.Tensor) ([]*ops.Tensor, error) {
			ggx, err := clampBackwardOp.CallContext(ctx, []*ops.Tensor{gg, in[1]}, sc)
			return []*ops.Tensor{ggx, nil}, err
		},
		CPU: backwardCPU,
	})
	// The CUDA kernels, the way a backend package adds kernels for its device.
	ops.RegisterKernel("Clamp", ops.DeviceCUDA, forwardCUDA)
	ops.RegisterKernel("ClampBackward", ops.DeviceCUDA, backwardCUDA)
}

func checkBounds(lo, hi float64) error {
	if math.IsNaN(lo) || math.IsNaN(hi) || lo > hi {
		return &ops.OpError{Arg: "lo", Kind: ops.ErrArg, Detail: fmt.Sprintf("lo = %v, hi = %v: expected lo <= hi", lo, hi)}
	}
	return nil
}

// Clamp returns x limited to [lo, hi] elementwise (NaN stays NaN), on x's device. It records itself
// for autograd. lo may be -Inf and hi +Inf.
func Clamp(x *ops.Tensor, lo, hi float64) (*ops.Tensor, error) {
	return clampOp.Call([]*ops.Tensor{x}, []float64{lo, hi})
}

// ClampContext is Clamp queued where ctx says (with ops/cuda, on the stream of cuda.WithStream).
func ClampContext(ctx context.Context, x *ops.Tensor, lo, hi float64) (*ops.Tensor, error) {
	return clampOp.CallContext(ctx, []*ops.Tensor{x}, []float64{lo, hi})
}

// ClampBackward returns g where lo <= x <= hi and 0 elsewhere: the gradient of Clamp(x, lo, hi)
// given the output gradient g. g and x must have one shape, device and dtype.
func ClampBackward(g, x *ops.Tensor, lo, hi float64) (*ops.Tensor, error) {
	return clampBackwardOp.Call([]*ops.Tensor{g, x}, []float64{lo, hi})
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

// forwardCPU is Clamp's CPU kernel: out is fresh and contiguous; x may be any view.
func forwardCPU(out *ops.Tensor, in []*ops.Tensor, sc []float64) error {
	in, release, err := ops.ContiguousAll(context.Background(), in...)
	if err != nil {
		return err
	}
	defer release()
	if out.DType() == ops.Float32 {
		clampCPU(ops.HostView[float32](out), ops.HostView[float32](in[0]), float32(sc[0]), float32(sc[1]))
	} else {
		clampCPU(ops.HostView[float64](out), ops.HostView[float64](in[0]), sc[0], sc[1])
	}
	return nil
}

// backwardCPU is ClampBackward's CPU kernel.
func backwardCPU(out *ops.Tensor, in []*ops.Tensor, sc []float64) error {
	in, release, err := ops.ContiguousAll(context.Background(), in...)
	if err != nil {
		return err
	}
	defer release()
	if out.DType() == ops.Float32 {
		maskCPU(ops.HostView[float32](out), ops.HostView[float32](in[0]), ops.HostView[float32](in[1]), float32(sc[0]), float32(sc[1]))
	} else {
		maskCPU(ops.HostView[float64](out), ops.HostView[float64](in[0]), ops.HostView[float64](in[1]), sc[0], sc[1])
	}
	return nil
}

// forwardCUDA is Clamp's CUDA kernel: cuda.NewLaunch gives the output's stream (the one the op
// was called with), the C ABI's dtype code and the device addresses of x (made contiguous) and out.
func forwardCUDA(out *ops.Tensor, in []*ops.Tensor, sc []float64) error {
	l, err := cuda.NewLaunch(out, in[0])
	if err != nil {
		return err
	}
	return l.Done("clamp forward kernel", int(C.clamp_forward(C.ulonglong(l.Stream), C.int(l.Device), C.int(l.DType),
		C.ulonglong(l.In[0]), C.ulonglong(l.Out), C.longlong(l.N), C.double(sc[0]), C.double(sc[1]))))
}

// backwardCUDA is ClampBackward's CUDA kernel (inputs g and x).
func backwardCUDA(out *ops.Tensor, in []*ops.Tensor, sc []float64) error {
	l, err := cuda.NewLaunch(out, in[0], in[1])
	if err != nil {
		return err
	}
	return l.Done("clamp backward kernel", int(C.clamp_backward(C.ulonglong(l.Stream), C.int(l.Device), C.int(l.DType),
		C.ulonglong(l.In[0]), C.ulonglong(l.In[1]), C.ulonglong(l.Out), C.longlong(l.N), C.double(sc[0]), C.double(sc[1]))))
}
