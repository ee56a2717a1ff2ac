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
		Backward: func(g *ops.Tensor, in []*ops.Tensor, sc []float64, _ *ops.Tensor) ([]*ops.Tensor, error) {
			gx, err := ClampBackward(g, in[0], sc[0], sc[1])
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
		Backward: func(gg *ops.Tensor, in []*ops.Tensor, sc []float64, _ *ops.Tensor) ([]*ops.Tensor, error) {
			ggx, err := ClampBackward(gg, in[1], sc[0], sc[1])
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

// ClampBackward returns g where lo <= x <= hi and 0 elsewhere: the gradient of Clamp(x, lo, hi)
// given the output gradient g. g and x must have one shape, device and dtype.
func ClampBackward(g, x *ops.Tensor, lo, hi float64) (*ops.Tensor, error) {
	return clampBackwardOp.Call([]*ops.Tensor{g, x}, []float64{lo, hi})
}

// contiguous returns the tensors as contiguous tensors (themselves where they already are) and
// a function that frees the copies it made.
func contiguous(in []*ops.Tensor) ([]*ops.Tensor, func(), error) {
	out := make([]*ops.Tensor, len(in))
	release := func() {
		for i, t := range out {
			if t != nil && t != in[i] {
				t.Free()
			}
		}
	}
	for i, t := range in {
		c, err := t.Contiguous()
		if err != nil {
			release()
			return nil, nil, err
		}
		out[i] = c
	}
	return out, release, nil
}

// host returns the n elements of a contiguous CPU tensor from its offset.
func host[T float32 | float64](t *ops.Tensor, n int) []T {
	s := t.Storage().(*ops.CPUStorage)
	var all any = s.Float64()
	if t.DType() == ops.Float32 {
		all = s.Float32()
	}
	return all.([]T)[t.Offset() : t.Offset()+n]
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
	in, release, err := contiguous(in)
	if err != nil {
		return err
	}
	defer release()
	n := out.Numel()
	if out.DType() == ops.Float32 {
		clampCPU(host[float32](out, n), host[float32](in[0], n), float32(sc[0]), float32(sc[1]))
	} else {
		clampCPU(host[float64](out, n), host[float64](in[0], n), sc[0], sc[1])
	}
	return nil
}

// backwardCPU is ClampBackward's CPU kernel.
func backwardCPU(out *ops.Tensor, in []*ops.Tensor, sc []float64) error {
	in, release, err := contiguous(in)
	if err != nil {
		return err
	}
	defer release()
	n := out.Numel()
	if out.DType() == ops.Float32 {
		maskCPU(host[float32](out, n), host[float32](in[0], n), host[float32](in[1], n), float32(sc[0]), float32(sc[1]))
	} else {
		maskCPU(host[float64](out, n), host[float64](in[0], n), host[float64](in[1], n), sc[0], sc[1])
	}
	return nil
}

// devicePtr returns the device address of a contiguous CUDA tensor's first element.
func devicePtr(t *ops.Tensor) (C.ulonglong, error) {
	s, ok := t.Storage().(*cuda.Storage)
	if !ok {
		return 0, fmt.Errorf("clamp: CUDA kernel got %T storage, expected *cuda.Storage", t.Storage())
	}
	return C.ulonglong(s.Ptr() + uintptr(t.Offset()*t.DType().Size())), nil
}

func dtypeCode(d ops.DType) C.int {
	if d == ops.Float64 {
		return 1
	}
	return 0
}

func launchError(what string, code C.int) error {
	if code == 0 {
		return nil
	}
	return fmt.Errorf("clamp: launching the %s kernel: %s", what, C.GoString(C.clamp_error_name(code)))
}

// forwardCUDA is Clamp's CUDA kernel: it passes device addresses to the launcher in clamp.cu. The
// work is queued on the device's legacy default stream, like the library's own kernels, so it is
// ordered with them and with the copies of ops.Tensor.To.
func forwardCUDA(out *ops.Tensor, in []*ops.Tensor, sc []float64) error {
	in, release, err := contiguous(in)
	if err != nil {
		return err
	}
	defer release() // stream-ordered frees: safe with the kernel still queued
	x, err := devicePtr(in[0])
	if err != nil {
		return err
	}
	y, err := devicePtr(out)
	if err != nil {
		return err
	}
	return launchError("forward", C.clamp_forward(C.int(out.Device().Index), dtypeCode(out.DType()),
		x, y, C.longlong(out.Numel()), C.double(sc[0]), C.double(sc[1])))
}

// backwardCUDA is ClampBackward's CUDA kernel.
func backwardCUDA(out *ops.Tensor, in []*ops.Tensor, sc []float64) error {
	in, release, err := contiguous(in)
	if err != nil {
		return err
	}
	defer release()
	var ptrs [3]C.ulonglong
	for i, t := range []*ops.Tensor{in[0], in[1], out} {
		if ptrs[i], err = devicePtr(t); err != nil {
			return err
		}
	}
	return launchError("backward", C.clamp_backward(C.int(out.Device().Index), dtypeCode(out.DType()),
		ptrs[0], ptrs[1], ptrs[2], C.longlong(out.Numel()), C.double(sc[0]), C.double(sc[1])))
}
