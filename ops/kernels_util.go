package ops

import (
	"context"
	"fmt"
	"slices"
)

// byDType turns a pair of typed CPU kernels into a Kernel. The 16-bit
// dtypes run the float32 kernel on inputs widened to float32 (exactly) and
// round its result to the output dtype (viaFloat32).
func byDType(f32, f64 func(out *Tensor, in []*Tensor, args Args)) Kernel {
	return func(_ context.Context, out *Tensor, in []*Tensor, s Args) error {
		switch out.dtype {
		case Float32:
			f32(out, in, s)
		case Float64:
			f64(out, in, s)
		case Float16, BFloat16:
			viaFloat32(f32, out, in, s)
		default:
			return fmt.Errorf("unsupported dtype %v", out.dtype)
		}
		return nil
	}
}

// byElem turns a CPU kernel that only moves elements (no arithmetic) into a
// Kernel over every dtype.
func byElem(f32, f64, f16, bf16 func(out *Tensor, in []*Tensor, args Args)) Kernel {
	return func(_ context.Context, out *Tensor, in []*Tensor, s Args) error {
		switch out.dtype {
		case Float32:
			f32(out, in, s)
		case Float64:
			f64(out, in, s)
		case Float16:
			f16(out, in, s)
		case BFloat16:
			bf16(out, in, s)
		default:
			return fmt.Errorf("unsupported dtype %v", out.dtype)
		}
		return nil
	}
}

// sameShape returns a ShapeFunc requiring all tensor inputs (named by
// names) to have the shape of the first, which is the output shape.
func sameShape(names ...string) ShapeFunc {
	return func(in []*Tensor, _ Args) ([]int, error) {
		for i, t := range in[1:] {
			if !slices.Equal(t.shape, in[0].shape) {
				return nil, fmt.Errorf("%s has shape %v, expected %v (same as %s)", names[i+1], t.shape, in[0].shape, names[0])
			}
		}
		return slices.Clone(in[0].shape), nil
	}
}

// ew1 runs row over out (contiguous, offset 0) and x in parallel chunks.
// row gets the destination run, x's data, the storage index of the run's
// first x element and x's stride along the run.
func ew1[T elem](out, x *Tensor, row func(dst, xd []T, xo, xs int)) {
	od, xd := cpuData[T](out), cpuData[T](x)
	n := out.Numel()
	if x.IsContiguous() {
		parallelFor(n, grain, func(lo, hi int) { row(od[lo:hi], xd, x.offset+lo, 1) })
		return
	}
	l := newLayout(x.shape, []int{x.offset}, x.strides)
	parallelFor(n, grain, func(lo, hi int) {
		i := lo
		l.rows(lo, hi, func(off []int, k int) {
			row(od[i:i+k], xd, off[0], l.inner[0])
			i += k
		})
	})
}

// ew2 is ew1 for two inputs x and y of out's shape.
func ew2[T elem](out, x, y *Tensor, row func(dst, xd, yd []T, xo, xs, yo, ys int)) {
	od, xd, yd := cpuData[T](out), cpuData[T](x), cpuData[T](y)
	n := out.Numel()
	if x.IsContiguous() && y.IsContiguous() {
		parallelFor(n, grain, func(lo, hi int) { row(od[lo:hi], xd, yd, x.offset+lo, 1, y.offset+lo, 1) })
		return
	}
	l := newLayout(x.shape, []int{x.offset, y.offset}, x.strides, y.strides)
	parallelFor(n, grain, func(lo, hi int) {
		i := lo
		l.rows(lo, hi, func(off []int, k int) {
			row(od[i:i+k], xd, yd, off[0], l.inner[0], off[1], l.inner[1])
			i += k
		})
	})
}
