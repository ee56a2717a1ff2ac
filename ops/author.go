package ops

import (
	"context"

	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

// Helpers for kernels written outside this package (see ops/examples/square
// and, for CUDA kernels, ops/cuda's DevicePtr and NewLaunch).

// ContiguousAll returns ts with each tensor made contiguous: the tensor
// itself when it already is, else a copy on its device (not recorded for
// autograd) made by an op called with ctx. release frees the copies; for a
// device with stream-ordered memory (ops/cuda), calling it right after
// queueing a kernel that reads them is safe. On error nothing is left to
// release.
func ContiguousAll(ctx context.Context, ts ...*Tensor) (out []*Tensor, release func(), err error) {
	out = make([]*Tensor, len(ts))
	release = func() {
		for i, t := range out {
			if t != nil && t != ts[i] {
				t.Free()
			}
		}
	}
	for i, t := range ts {
		if err := t.check("ContiguousAll", "tensor"); err != nil {
			release()
			return nil, nil, err
		}
		if t.IsContiguous() {
			out[i] = t
			continue
		}
		c, err := contiguousOp.call(ctx, "Contiguous", []*Tensor{t}, nil, false)
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
// BFloat16). It returns nil when t is nil, freed, not a
// contiguous CPU tensor, or of another dtype; a CPU kernel's output, and
// its inputs after ContiguousAll, always qualify.
func HostView[T float32 | float64 | half.Float16 | half.BFloat16](t *Tensor) []T {
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
	}
	v, ok := all.([]T)
	if !ok || t.offset+t.Numel() > len(v) {
		return nil
	}
	return v[t.offset : t.offset+t.Numel()]
}
