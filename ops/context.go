package ops

import (
	"context"
	"fmt"
)

// ContextBackend is implemented by backends that queue work on several
// streams and let a context choose one (ops/cuda: cuda.WithStream). Ops
// called through Op.CallContext or a ...Context function allocate their
// output with AllocContext; before every kernel, Order is called for each
// input, whatever the context, so a kernel never reads an input before the
// work that produced it on another stream.
type ContextBackend interface {
	Backend
	// AllocContext is Alloc for an op called with ctx; the storage belongs
	// to the stream ctx selects, where the op's kernel runs.
	AllocContext(ctx context.Context, d Device, dtype DType, n int) (Storage, error)
	// Order is called before a kernel that writes out reads in. It orders
	// the work of out's stream after the work queued so far on in's stream
	// (if they differ) and keeps in's memory from reuse until that kernel
	// has run (PyTorch's record_stream).
	Order(in, out Storage) error
}

// orderInputs calls the backend's Order for every input of a kernel about
// to write out.
func orderInputs(op string, out *Tensor, ts []*Tensor, names []string) error {
	cb, ok := out.buf.st.backend.(ContextBackend)
	if !ok {
		return nil
	}
	for i, t := range ts {
		if err := cb.Order(t.buf.st.storage, out.buf.st.storage); err != nil {
			return fmt.Errorf("ops.%s: ordering the kernel after the work that produced %s: %w", op, names[i], err)
		}
	}
	return nil
}
