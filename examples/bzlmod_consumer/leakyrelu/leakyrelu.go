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
		Args: []ops.Arg{{Name: "x", Kind: ops.KindTensor}, {Name: "slope", Kind: ops.KindScalar}},
		Shape: func(in []*ops.Tensor, sc []float64) ([]int, error) {
			if err := checkSlope(sc[0]); err != nil {
				return nil, err
			}
			return in[0].Shape(), nil
		},
		// dy/dx = 1 where x > 0, slope elsewhere: the backward op, on the tensors' device.
		// With the forward's context: on a GPU, the backward runs on the forward's stream.
		BackwardContext: func(ctx context.Context, g *ops.Tensor, in []*ops.Tensor, sc []float64, _ *ops.Tensor) ([]*ops.Tensor, error) {
			gx, err := leakyReluBackwardOp.CallContext(ctx, []*ops.Tensor{g, in[0]}, sc)
			return []*ops.Tensor{gx}, err
		},
		CPU: forwardCPU,
	})
	leakyReluBackwardOp = ops.RegisterOp(ops.OpDef{
		Name: "LeakyReluBackward",
		Args: []ops.Arg{{Name: "g", Kind: ops.KindTensor}, {Name: "x", Kind: ops.KindTensor}, {Name: "slope", Kind: ops.KindScalar}},
		Shape: func(in []*ops.Tensor, sc []float64) ([]int, error) {
			if !slices.Equal(in[0].Shape(), in[1].Shape()) {
				return nil, &ops.OpError{Arg: "x", Kind: ops.ErrShape,
					Detail: fmt.Sprintf("x has shape %v, expected %v (same as g)", in[1].Shape(), in[0].Shape())}
			}
			if err := checkSlope(sc[0]); err != nil {
				return nil, err
			}
			return in[0].Shape(), nil
		},
		// Linear in g (the same mask again); piecewise constant in x, so x gets no gradient.
		BackwardContext: func(ctx context.Context, gg *ops.Tensor, in []*ops.Tensor, sc []float64, _ *ops.Tensor) ([]*ops.Tensor, error) {
			ggx, err := leakyReluBackwardOp.CallContext(ctx, []*ops.Tensor{gg, in[1]}, sc)
			return []*ops.Tensor{ggx, nil}, err
		},
		CPU: backwardCPU,
	})
	// The CUDA kernels, the way a backend package adds kernels for its device.
	ops.RegisterKernel("LeakyRelu", ops.DeviceCUDA, forwardCUDA)
	ops.RegisterKernel("LeakyReluBackward", ops.DeviceCUDA, backwardCUDA)
}

func checkSlope(slope float64) error {
	if math.IsNaN(slope) || math.IsInf(slope, 0) {
		return &ops.OpError{Arg: "slope", Kind: ops.ErrArg, Detail: fmt.Sprintf("slope is %v, expected a finite number", slope)}
	}
	return nil
}

// LeakyRelu returns x where x > 0 and slope*x elsewhere, elementwise on x's device. It records
// itself for autograd.
func LeakyRelu(x *ops.Tensor, slope float64) (*ops.Tensor, error) {
	return leakyReluOp.Call([]*ops.Tensor{x}, []float64{slope})
}

// LeakyReluContext is LeakyRelu queued where ctx says (with ops/cuda, on the stream of
// cuda.WithStream).
func LeakyReluContext(ctx context.Context, x *ops.Tensor, slope float64) (*ops.Tensor, error) {
	return leakyReluOp.CallContext(ctx, []*ops.Tensor{x}, []float64{slope})
}

// LeakyReluBackward returns g where x > 0 and slope*g elsewhere: the gradient of LeakyRelu(x,
// slope) given the output gradient g. g and x must have one shape, device and dtype.
func LeakyReluBackward(g, x *ops.Tensor, slope float64) (*ops.Tensor, error) {
	return leakyReluBackwardOp.Call([]*ops.Tensor{g, x}, []float64{slope})
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

// forwardCPU is LeakyRelu's CPU kernel: out is fresh and contiguous; x may be any view.
func forwardCPU(out *ops.Tensor, in []*ops.Tensor, sc []float64) error {
	in, release, err := ops.ContiguousAll(context.Background(), in...)
	if err != nil {
		return err
	}
	defer release()
	if out.DType() == ops.Float32 {
		leakyCPU(ops.HostView[float32](out), ops.HostView[float32](in[0]), float32(sc[0]))
	} else {
		leakyCPU(ops.HostView[float64](out), ops.HostView[float64](in[0]), sc[0])
	}
	return nil
}

// backwardCPU is LeakyReluBackward's CPU kernel.
func backwardCPU(out *ops.Tensor, in []*ops.Tensor, sc []float64) error {
	in, release, err := ops.ContiguousAll(context.Background(), in...)
	if err != nil {
		return err
	}
	defer release()
	if out.DType() == ops.Float32 {
		maskCPU(ops.HostView[float32](out), ops.HostView[float32](in[0]), ops.HostView[float32](in[1]), float32(sc[0]))
	} else {
		maskCPU(ops.HostView[float64](out), ops.HostView[float64](in[0]), ops.HostView[float64](in[1]), sc[0])
	}
	return nil
}

// forwardCUDA is LeakyRelu's CUDA kernel: cuda.NewLaunch gives the output's stream (the one the op
// was called with), the C ABI's dtype code and the device addresses of x (made contiguous) and out.
func forwardCUDA(out *ops.Tensor, in []*ops.Tensor, sc []float64) error {
	l, err := cuda.NewLaunch(out, in[0])
	if err != nil {
		return err
	}
	return l.Done("leakyrelu forward kernel", int(C.leakyrelu_forward(C.ulonglong(l.Stream), C.int(l.Device), C.int(l.DType),
		C.ulonglong(l.In[0]), C.ulonglong(l.Out), C.longlong(l.N), C.double(sc[0]))))
}

// backwardCUDA is LeakyReluBackward's CUDA kernel (inputs g and x).
func backwardCUDA(out *ops.Tensor, in []*ops.Tensor, sc []float64) error {
	l, err := cuda.NewLaunch(out, in[0], in[1])
	if err != nil {
		return err
	}
	return l.Done("leakyrelu backward kernel", int(C.leakyrelu_backward(C.ulonglong(l.Stream), C.int(l.Device), C.int(l.DType),
		C.ulonglong(l.In[0]), C.ulonglong(l.In[1]), C.ulonglong(l.Out), C.longlong(l.N), C.double(sc[0]))))
}
