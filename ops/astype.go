package ops

import (
	"context"
	"fmt"
	"slices"
)

// AsType returns a contiguous copy of t with its elements converted to
// dtype, on t's device (t itself if it has dtype already). Ops never mix
// dtypes; AsType is how to convert explicitly, like torch's Tensor.to(dtype).
// Widening (to float32 from the 16-bit dtypes, to float64 from any) is
// exact; narrowing rounds to nearest even, through float32 from float64.
// A backend that implements Converter (ops/cuda) converts on its device;
// tensors of other backends are converted through host memory. The result
// records AsType for autograd: its gradient is the incoming gradient
// converted back to t's dtype.
func (t *Tensor) AsType(dtype DType) (*Tensor, error) {
	return t.AsTypeContext(context.Background(), dtype)
}

// AsTypeContext is AsType queued where ctx says (on a Converter backend:
// for ops/cuda, the context's stream, so it can be captured into a graph).
func (t *Tensor) AsTypeContext(ctx context.Context, dtype DType) (*Tensor, error) {
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
	var out *Tensor
	if c, ok := t.buf.st.backend.(Converter); ok {
		o, err := t.convertOn(ctx, c, dtype)
		if err != nil {
			return nil, err
		}
		out = o
	} else {
		h, release, err := t.hostView(op)
		if err != nil {
			return nil, err
		}
		out = convertHost(h, dtype)
		release()
		if t.device != CPU {
			if out, err = out.To(t.device); err != nil {
				return nil, err
			}
		}
	}
	from, bctx := t.dtype, context.WithoutCancel(ctx) // the backward runs where the forward did
	recordUnary(out, op, t, func(g *Tensor) (*Tensor, error) { return g.AsTypeContext(bctx, from) })
	return out, nil
}

// Converter is implemented by backends that convert dtypes on their own
// device (ops/cuda); AsType uses it instead of going through host memory.
type Converter interface {
	// Convert writes the elements of in (any layout) converted to out's
	// dtype into out, a fresh contiguous tensor of in's shape on in's
	// device, allocated for the context of the AsTypeContext call. It
	// rounds as AsType documents.
	Convert(out, in *Tensor) error
}

// convertOn is AsTypeContext on a Converter backend.
func (t *Tensor) convertOn(ctx context.Context, c Converter, dtype DType) (*Tensor, error) {
	const op = "AsType"
	ts, names := []*Tensor{t}, []string{"tensor"}
	if err := pinAll(op, ts, names); err != nil {
		return nil, err
	}
	defer unpinAll(ts)
	out, err := allocTensorContext(ctx, op, t.device, dtype, slices.Clone(t.shape))
	if err != nil {
		return nil, err
	}
	if err := orderInputs(op, out, ts, names); err != nil {
		out.Free()
		return nil, err
	}
	if err := c.Convert(out, t); err != nil {
		out.Free()
		return nil, fmt.Errorf("ops.%s: %v kernel: %w", op, t.device, err)
	}
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
