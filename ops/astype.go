package ops

import "slices"

// AsType returns a contiguous copy of t with its elements converted to
// dtype, on t's device (t itself if it has dtype already). Ops never mix
// dtypes; AsType is how to convert explicitly, like torch's Tensor.to(dtype).
// Widening (to float32 from the 16-bit dtypes, to float64 from any) is
// exact; narrowing rounds to nearest even, through float32 from float64.
// Tensors on a device other than the CPU are converted through host memory
// (a device kernel for it is future work). The result records AsType for
// autograd: its gradient is the incoming gradient converted back to t's
// dtype.
func (t *Tensor) AsType(dtype DType) (*Tensor, error) {
	const op = "AsType"
	if err := t.check(op, "tensor"); err != nil {
		return nil, err
	}
	if err := checkDType(op, dtype); err != nil {
		return nil, err
	}
	if dtype == t.dtype {
		return t, nil
	}
	h, release, err := t.hostView(op)
	if err != nil {
		return nil, err
	}
	c := convertHost(h, dtype)
	release()
	out := c
	if t.device != CPU {
		if out, err = c.To(t.device); err != nil {
			return nil, err
		}
	}
	from := t.dtype
	recordUnary(out, op, t, func(g *Tensor) (*Tensor, error) { return g.AsType(from) })
	return out, nil
}

// convertHost returns a new contiguous CPU tensor with the elements of the
// live CPU tensor h converted to dtype.
func convertHost(h *Tensor, dtype DType) *Tensor {
	n := h.Numel()
	out := hostTensor(dtype, slices.Clone(h.shape), n)
	s := out.cpu()
	switch dtype {
	case Float32:
		gatherTo(s.f32, h)
	case Float64:
		gatherTo(s.f64, h)
	default:
		tmp := make([]float32, n)
		gatherTo(tmp, h)
		storeRounded(s, tmp)
	}
	return out
}
