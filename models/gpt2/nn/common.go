package nn

import (
	"context"
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

// Helpers shared by the ops: argument checks, and the CPU kernels' access to tensors (made
// contiguous, read and written as float64: the CPU kernels compute in float64 in every dtype).

// argErr returns an *ops.OpError of kind naming op and arg.
func argErr(op, arg string, kind error, format string, a ...any) error {
	return &ops.OpError{Op: op, Arg: arg, Kind: kind, Detail: fmt.Sprintf(format, a...)}
}

// checkFloat checks that t (named arg) has one of the dtypes this package computes on.
func checkFloat(op, arg string, t *ops.Tensor) error {
	switch t.DType() {
	case ops.Float32, ops.Float64, ops.BFloat16:
		return nil
	}
	return argErr(op, arg, ops.ErrDType, "%s has dtype %v, expected float32, float64 or bfloat16", arg, t.DType())
}

// checkSame checks that t (named arg) has ref's dtype (ref named refArg).
func checkSame(op, arg string, t *ops.Tensor, refArg string, ref *ops.Tensor) error {
	if t.DType() != ref.DType() {
		return argErr(op, arg, ops.ErrDType, "%s has dtype %v, expected %v (same as %s); convert one explicitly with AsType", arg, t.DType(), ref.DType(), refArg)
	}
	return nil
}

// checkInt32 checks that t (named arg) is an int32 index tensor.
func checkInt32(op, arg string, t *ops.Tensor) error {
	if t.DType() != ops.Int32 {
		return argErr(op, arg, ops.ErrDType, "%s has dtype %v, expected int32 (indices: ops.FromInt32)", arg, t.DType())
	}
	return nil
}

// lossDType is the dtype of a loss computed from logits of dtype d: float64 for float64,
// float32 otherwise.
func lossDType(d ops.DType) ops.DType {
	if d == ops.Float64 {
		return ops.Float64
	}
	return ops.Float32
}

// contiguous returns ts made contiguous (copies not recorded for autograd) and a function that
// frees the copies.
func contiguous(ctx context.Context, ts []*ops.Tensor) ([]*ops.Tensor, func(), error) {
	out := make([]*ops.Tensor, len(ts))
	release := func() {
		for i, t := range out {
			if t != nil && t != ts[i] {
				t.Free()
			}
		}
	}
	for i, t := range ts {
		if t == nil || t.IsContiguous() {
			out[i] = t
			continue
		}
		c, err := t.Detach().Contiguous(ctx)
		if err != nil {
			release()
			return nil, nil, err
		}
		out[i] = c
	}
	return out, release, nil
}

// vec is a contiguous CPU tensor's elements, read and written as float64.
type vec struct {
	f32  []float32
	f64  []float64
	bf16 []half.BFloat16
	f16  []half.Float16
	i32  []int32
}

// hostVec returns the elements of the contiguous CPU tensor t.
func hostVec(t *ops.Tensor) vec {
	return vec{f32: ops.HostView[float32](t), f64: ops.HostView[float64](t), bf16: ops.HostView[half.BFloat16](t),
		f16: ops.HostView[half.Float16](t), i32: ops.HostView[int32](t)}
}

func (v vec) at(i int) float64 {
	switch {
	case v.f32 != nil:
		return float64(v.f32[i])
	case v.f64 != nil:
		return v.f64[i]
	case v.bf16 != nil:
		return float64(v.bf16[i].Float32())
	case v.f16 != nil:
		return float64(v.f16[i].Float32())
	}
	return float64(v.i32[i])
}

// set stores x rounded to the dtype (the 16-bit ones through float32, to nearest even).
func (v vec) set(i int, x float64) {
	switch {
	case v.f32 != nil:
		v.f32[i] = float32(x)
	case v.f64 != nil:
		v.f64[i] = x
	case v.bf16 != nil:
		v.bf16[i] = half.BFloat16From(float32(x))
	case v.f16 != nil:
		v.f16[i] = half.Float16From(float32(x))
	}
}

// floats returns the elements of the contiguous CPU tensor t as float64.
func floats(t *ops.Tensor) []float64 {
	v := hostVec(t)
	out := make([]float64, t.Numel())
	for i := range out {
		out[i] = v.at(i)
	}
	return out
}

// storeAll stores x into the contiguous CPU tensor t.
func storeAll(t *ops.Tensor, x []float64) {
	v := hostVec(t)
	for i, f := range x {
		v.set(i, f)
	}
}

// shapeErr returns an ops.ErrShape error naming op and arg.
func shapeErr(op, arg string, format string, a ...any) error {
	return argErr(op, arg, ops.ErrShape, format, a...)
}
