package ops

import (
	"context"
)

// Int32 tensors hold indices (token ids, targets): they are made, viewed,
// copied between devices and read back like the others, and taken as
// inputs by ops registered as a MultiOp (whose calls accept any dtypes);
// an Op computes on the floating-point dtypes only and refuses them with
// ErrDType.

// FromInt32 returns an int32 CPU tensor holding a copy of data in row-major
// order. With no shape, the tensor is 1-D of length len(data).
func FromInt32(data []int32, shape ...int) (*Tensor, error) {
	return fromElems("FromInt32", Int32, data, shape)
}

// Int32s copies the elements of an int32 tensor to a new host slice in
// row-major (logical) order; a tensor of another dtype is an ErrDType error
// (Float64s reads an int32 tensor as float64, exactly).
func (t *Tensor) Int32s() ([]int32, error) {
	const op = "Int32s"
	if err := t.check(op, "tensor"); err != nil {
		return nil, err
	}
	if t.dtype != Int32 {
		return nil, opErr(op, "tensor", ErrDType, "tensor has dtype %v, expected int32", t.dtype)
	}
	h, release, err := t.hostView(op)
	if err != nil {
		return nil, err
	}
	defer release()
	out := make([]int32, h.Numel())
	gather(out, h.cpu().i32, h, func(v int32) int32 { return v })
	return out, nil
}

// withInt32 returns k with an int32 CPU kernel i32 for an op that only
// moves elements (Contiguous).
func withInt32(k Kernel, i32 func(out *Tensor, in []*Tensor, args Args)) Kernel {
	return func(ctx context.Context, out *Tensor, in []*Tensor, args Args) error {
		if out.dtype == Int32 {
			i32(out, in, args)
			return nil
		}
		return k(ctx, out, in, args)
	}
}

// checkFloat refuses a call of an Op (not a MultiOp) on tensors of a
// dtype that is not floating-point; Contiguous, which only moves elements,
// takes them all.
func (d *dispatch) checkFloat() error {
	if d.op == nil || d.op == Builtin.Contiguous {
		return nil
	}
	for i, t := range d.ts {
		if !t.dtype.isFloat() {
			return opErr(d.name, d.names[i], ErrDType, "%s has dtype %v: %s computes on float32, float64, float16 or bfloat16 only", d.names[i], t.dtype, d.name)
		}
	}
	return nil
}
