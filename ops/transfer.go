package ops

import (
	"context"
	"fmt"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

// Contiguous returns t itself if it is contiguous, else a contiguous copy on
// the same device, made by an op called with ctx.
func (t *Tensor) Contiguous(ctx context.Context) (*Tensor, error) {
	op := Builtin.Contiguous.Name()
	if err := checkCtx(op, ctx); err != nil {
		return nil, err
	}
	if err := t.check(op, "tensor"); err != nil {
		return nil, err
	}
	if t.IsContiguous() {
		return t, nil
	}
	return copyTensor(ctx, op, t, true)
}

// copyTensor returns a contiguous copy of t, using the device's
// "Contiguous" kernel if it has one and a round trip through host memory
// otherwise (so a backend needs no kernels for To and Float64s to work).
func copyTensor(ctx context.Context, op string, t *Tensor, record bool) (*Tensor, error) {
	if hasKernel(Builtin.Contiguous, t.device.Type) {
		return Builtin.Contiguous.call(ctx, op, []*Tensor{t}, Args{}, record)
	}
	if !t.buf.st.pin() {
		return nil, opErr(op, "tensor", ErrFreed, "tensor has been freed")
	}
	defer t.buf.st.unpin()
	lo, hi := t.offset, t.offset+1
	for d, s := range t.shape {
		if s == 0 {
			hi = lo
			break
		}
		hi += (s - 1) * t.strides[d]
	}
	b := t.buf.st.backend
	host := newCPUStorage(t.dtype, hi-lo)
	if err := b.CopyToHost(host, 0, t.buf.st.storage, lo, hi-lo); err != nil {
		return nil, fmt.Errorf("ops.%s: copying from %v to host: %w", op, t.device, err)
	}
	ht := &Tensor{shape: t.shape, strides: t.strides, offset: t.offset - lo, dtype: t.dtype, device: CPU, buf: newBuffer(host, cpuBackend{})}
	hc, err := Builtin.Contiguous.call(ctx, op, []*Tensor{ht}, Args{}, false)
	if err != nil {
		return nil, err
	}
	out, err := allocTensor(ctx, op, t.device, t.dtype, slices.Clone(t.shape))
	if err != nil {
		return nil, err
	}
	if err := b.CopyFromHost(out.buf.st.storage, 0, hc.cpu(), 0, out.Numel()); err != nil {
		out.Free()
		return nil, fmt.Errorf("ops.%s: copying from host to %v: %w", op, t.device, err)
	}
	if record {
		recordUnary(out, op, t, func(_ context.Context, g *Tensor) (*Tensor, error) { return g, nil })
	}
	return out, nil
}

// To returns a copy of t on device dev (t itself if it is already there).
// The copy goes through the backends' host copies; a copy between two
// devices of one backend that has a CopyPeer method (Backend) (ops/cuda: two GPUs)
// goes directly, others are staged through host memory. A copy to a device
// is allocated for ctx (with ops/cuda, on the context's stream, where a
// peer copy also runs), a copy from a device runs after the work queued on
// t's stream.
func (t *Tensor) To(ctx context.Context, dev Device) (*Tensor, error) {
	const op = "To"
	if err := checkCtx(op, ctx); err != nil {
		return nil, err
	}
	if err := t.check(op, "tensor"); err != nil {
		return nil, err
	}
	if !dev.valid() {
		return nil, opErr(op, "device", ErrDevice, "device %v is invalid", dev)
	}
	if dev == t.device {
		return t, nil
	}
	dstB, err := backendFor(op, dev)
	if err != nil {
		return nil, err
	}
	src := t
	if !t.IsContiguous() {
		if src, err = copyTensor(ctx, op, t.Detach(), false); err != nil {
			return nil, err
		}
		defer src.Free()
	}
	if !src.buf.st.pin() {
		return nil, opErr(op, "tensor", ErrFreed, "tensor has been freed")
	}
	defer src.buf.st.unpin()
	out, err := allocTensor(ctx, op, dev, t.dtype, slices.Clone(t.shape))
	if err != nil {
		return nil, err
	}
	n, off := out.Numel(), src.offset
	srcB, srcSt, dstSt := src.buf.st.backend, src.buf.st.storage, out.buf.st.storage
	switch {
	case t.device.Type == DeviceCPU:
		err = dstB.CopyFromHost(dstSt, 0, srcSt.(*CPUStorage), off, n)
	case dev.Type == DeviceCPU:
		err = srcB.CopyToHost(dstSt.(*CPUStorage), 0, srcSt, off, n)
	case srcB == dstB && isPeerCopier(srcB):
		err = srcB.(peerCopier).CopyPeer(dstSt, 0, srcSt, off, n)
	default:
		tmp := newCPUStorage(t.dtype, n)
		if err = srcB.CopyToHost(tmp, 0, srcSt, off, n); err == nil {
			err = dstB.CopyFromHost(dstSt, 0, tmp, 0, n)
		}
	}
	if err != nil {
		out.Free()
		return nil, fmt.Errorf("ops.To: copying from %v to %v: %w", t.device, dev, err)
	}
	from := t.device
	recordUnary(out, op, t, func(ctx context.Context, g *Tensor) (*Tensor, error) { return g.To(ctx, from) })
	return out, nil
}

// hostView returns a CPU tensor with t's values (t itself if on CPU), pinned
// until release is called.
func (t *Tensor) hostView(op string) (h *Tensor, release func(), err error) {
	if err := t.checkNil(op, "tensor"); err != nil {
		return nil, nil, err
	}
	if t.device.Type != DeviceCPU {
		if h, err = t.Detach().To(context.Background(), CPU); err != nil {
			return nil, nil, err
		}
	} else {
		h = t
	}
	if !h.buf.st.pin() {
		return nil, nil, opErr(op, "tensor", ErrFreed, "tensor has been freed")
	}
	return h, h.buf.st.unpin, nil
}

// Float64s copies the elements to a new host slice in row-major (logical)
// order, converted to float64 (exactly, from every dtype).
func (t *Tensor) Float64s() ([]float64, error) {
	h, release, err := t.hostView("Float64s")
	if err != nil {
		return nil, err
	}
	defer release()
	out := make([]float64, h.Numel())
	gatherTo(out, h)
	return out, nil
}

// Float32s copies the elements to a new host slice in row-major (logical)
// order, converted to float32: exactly from float32, float16 and bfloat16,
// rounded to nearest from float64.
func (t *Tensor) Float32s() ([]float32, error) {
	h, release, err := t.hostView("Float32s")
	if err != nil {
		return nil, err
	}
	defer release()
	out := make([]float32, h.Numel())
	gatherTo(out, h)
	return out, nil
}

// Float16s copies the elements to a new host slice in row-major (logical)
// order, rounded to float16 (nearest even; float64 values are rounded to
// float32 first). Values beyond ±65504 become ±Inf.
func (t *Tensor) Float16s() ([]half.Float16, error) {
	v, err := t.Float32s()
	if err != nil {
		return nil, err
	}
	out := make([]half.Float16, len(v))
	return out, half.Float16s(out, v)
}

// BFloat16s copies the elements to a new host slice in row-major (logical)
// order, rounded to bfloat16 (nearest even; float64 values are rounded to
// float32 first).
func (t *Tensor) BFloat16s() ([]half.BFloat16, error) {
	v, err := t.Float32s()
	if err != nil {
		return nil, err
	}
	out := make([]half.BFloat16, len(v))
	return out, half.BFloat16s(out, v)
}

// Item returns the value of a one-element tensor as a float64.
func (t *Tensor) Item() (float64, error) {
	if err := t.check("Item", "tensor"); err != nil {
		return 0, err
	}
	if n := t.Numel(); n != 1 {
		return 0, opErr("Item", "tensor", ErrShape, "tensor has shape %v (%d elements), expected exactly 1 element", t.shape, n)
	}
	v, err := t.Float64s()
	if err != nil {
		return 0, err
	}
	return v[0], nil
}

func isPeerCopier(b Backend) bool {
	_, ok := b.(peerCopier)
	return ok
}
