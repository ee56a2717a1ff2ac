package ops

import (
	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

// Host-side element conversions: reading any dtype as float32 or float64
// (gatherTo), rounding float32 values into the 16-bit dtypes (storeRounded)
// and running float32 CPU kernels for the 16-bit dtypes (viaFloat32).

// viaFloat32 runs the float32 CPU kernel f32 for an op on a 16-bit dtype:
// the inputs are widened to contiguous float32 tensors (exactly), f32
// computes into a float32 output (in float32 or wider, as the float32
// kernels do) and the result is rounded to out's dtype, to nearest even.
// The float32 kernels round their wider intermediate to float32 first, so
// a result can be off by the float32 rounding (2^-24 relative) beyond
// correct rounding: far below the 16-bit dtypes' precision (2^-11, 2^-8).
func viaFloat32(f32 func(out *Tensor, in []*Tensor, args Args), out *Tensor, in []*Tensor, s Args) {
	wide := make([]*Tensor, len(in))
	for i, t := range in {
		wide[i] = widen(t)
	}
	wo := hostTensor(Float32, out.shape, out.Numel())
	f32(wo, wide, s)
	storeRounded(out.cpu(), wo.cpu().f32)
}

// hostTensor returns a contiguous CPU tensor of n elements with shape
// (shared, not copied: the tensor stays private to the caller).
func hostTensor(dtype DType, shape []int, n int) *Tensor {
	return &Tensor{shape: shape, strides: contiguousStrides(shape), dtype: dtype, device: CPU,
		buf: newBuffer(newCPUStorage(dtype, n), cpuBackend{})}
}

// widen returns a contiguous float32 CPU copy of the live CPU tensor t.
func widen(t *Tensor) *Tensor {
	w := hostTensor(Float32, t.shape, t.Numel())
	gatherTo(w.cpu().f32, t)
	return w
}

// storeRounded rounds src to nearest even into the 16-bit storage dst
// (float32 and float64 storages get a plain conversion), in parallel.
func storeRounded(dst *CPUStorage, src []float32) {
	parallelFor(len(src), grain, func(lo, hi int) {
		switch dst.dtype {
		case Float16:
			d := dst.f16[lo:hi]
			for i, v := range src[lo:hi] {
				d[i] = half.Float16From(v)
			}
		case BFloat16:
			d := dst.bf16[lo:hi]
			for i, v := range src[lo:hi] {
				d[i] = half.BFloat16From(v)
			}
		case Float32:
			copy(dst.f32[lo:hi], src[lo:hi])
		case Float64:
			d := dst.f64[lo:hi]
			for i, v := range src[lo:hi] {
				d[i] = float64(v)
			}
		}
	})
}

// gatherTo copies the elements of the live CPU tensor t into dst in
// logical order, converted to D (exactly, except float64 to float32 and
// int32 beyond 2^24 to float32, which round to nearest).
func gatherTo[D float](dst []D, t *Tensor) {
	s := t.cpu()
	switch t.dtype {
	case Float32:
		gather(dst, s.f32, t, func(v float32) D { return D(v) })
	case Float64:
		gather(dst, s.f64, t, func(v float64) D { return D(v) })
	case Float16:
		gather(dst, s.f16, t, func(v half.Float16) D { return D(v.Float32()) })
	case BFloat16:
		gather(dst, s.bf16, t, func(v half.BFloat16) D { return D(v.Float32()) })
	case Int32:
		gather(dst, s.i32, t, func(v int32) D { return D(v) })
	}
}

// gather copies the strided elements of t (backed by src) into dst in
// logical order, converting each with conv.
func gather[D, S any](dst []D, src []S, t *Tensor, conv func(S) D) {
	if len(dst) == 0 {
		return
	}
	if t.IsContiguous() {
		src := src[t.offset : t.offset+len(dst)]
		parallelFor(len(dst), grain, func(lo, hi int) {
			d := dst[lo:hi]
			for i, v := range src[lo:hi] {
				d[i] = conv(v)
			}
		})
		return
	}
	l := newLayout(t.shape, []int{t.offset}, t.strides)
	s := l.inner[0]
	parallelFor(len(dst), grain, func(lo, hi int) {
		i := lo
		l.rows(lo, hi, func(off []int, n int) {
			o := off[0]
			for range n {
				dst[i] = conv(src[o])
				i++
				o += s
			}
		})
	})
}
