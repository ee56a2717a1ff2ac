package ops

import (
	"context"

	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

// Helpers for kernels written outside this package (see ops/examples/square
// and, for CUDA kernels, ops/cuda's NewLaunch).

// ContiguousInputs returns a kernel that runs k on its inputs made
// contiguous: each input that is not is copied first (on its device, by an
// op called with the kernel's context, not recorded for autograd) and the
// copies are freed when k returns (on a device with stream-ordered memory,
// such as ops/cuda's, that is safe with k's work still queued). It is for
// kernels that index their inputs linearly, like most hand-written ones;
// a CPU kernel wrapped in it can read every input with HostView.
func ContiguousInputs(k Kernel) Kernel {
	return func(ctx context.Context, out *Tensor, in []*Tensor, args Args) error {
		c, release, err := contiguousAll(ctx, in)
		if err != nil {
			return err
		}
		defer release()
		return k(ctx, out, c, args)
	}
}

// contiguousAll returns ts with each tensor made contiguous: the tensor
// itself when it already is, else a copy on its device (not recorded for
// autograd) made by an op called with ctx. release frees the copies. On
// error nothing is left to release.
func contiguousAll(ctx context.Context, ts []*Tensor) (out []*Tensor, release func(), err error) {
	out = make([]*Tensor, len(ts))
	release = func() {
		for i, t := range out {
			if t != nil && t != ts[i] {
				t.Free()
			}
		}
	}
	for i, t := range ts {
		if t.IsContiguous() {
			out[i] = t
			continue
		}
		c, err := Builtin.Contiguous.call(ctx, Builtin.Contiguous.Name(), []*Tensor{t}, Args{}, false)
		if err != nil {
			release()
			return nil, nil, err
		}
		out[i] = c
	}
	return out, release, nil
}

// HostView returns the elements of a contiguous CPU tensor as a slice of
// its storage (no copy; writes go to the tensor): t.Numel() elements from
// its offset. T must be the Go type of t's dtype (float32 for Float32,
// float64 for Float64, half.Float16 for Float16, half.BFloat16 for
// BFloat16, int32 for Int32). It returns nil when t is nil, freed, not a
// contiguous CPU tensor, or of another dtype; a CPU kernel's output, and
// the inputs of a kernel wrapped in ContiguousInputs, always qualify.
func HostView[T float32 | float64 | half.Float16 | half.BFloat16 | int32](t *Tensor) []T {
	if t == nil || t.buf == nil || t.device != CPU || !t.IsContiguous() {
		return nil
	}
	s, ok := t.buf.st.storage.(*CPUStorage)
	if !ok || s == nil {
		return nil
	}
	var all any
	switch t.dtype {
	case Float32:
		all = s.Float32()
	case Float64:
		all = s.Float64()
	case Float16:
		all = s.Float16()
	case BFloat16:
		all = s.BFloat16()
	case Int32:
		all = s.Int32()
	}
	v, ok := all.([]T)
	switch {
	case !ok:
		return nil
	case t.Numel() == 0: // an empty view may start past its storage's end
		return v[:0]
	case t.offset+t.Numel() > len(v):
		return nil
	}
	return v[t.offset : t.offset+t.Numel()]
}
