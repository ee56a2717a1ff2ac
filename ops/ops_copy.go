package ops

import (
	"context"
	"fmt"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

// Builtin.Contiguous copies its input into a new contiguous tensor. It backs
// Tensor.Contiguous, To and gradient accumulation; a backend without a
// "Contiguous" kernel gets a slower round trip through host memory.
func init() {
	Builtin.Contiguous = registerBuiltin(OpDef{
		Name:  "Contiguous",
		Args:  []Arg{{"x", KindTensor}},
		Shape: sameShape("x"),
		Backward: func(_ context.Context, g *Tensor, _ []*Tensor, _ Args, _ *Tensor) ([]*Tensor, error) {
			return []*Tensor{g}, nil
		},
		CPU: withInt32(byElem(contiguousCPU[float32], contiguousCPU[float64], contiguousCPU[half.Float16], contiguousCPU[half.BFloat16]), contiguousCPU[int32]),
	})
}

func contiguousCPU[T elem](out *Tensor, in []*Tensor, _ Args) {
	ew1(out, in[0], func(dst, xd []T, xo, xs int) {
		if xs == 1 {
			copy(dst, xd[xo:xo+len(dst)])
			return
		}
		for i := range dst {
			dst[i] = xd[xo]
			xo += xs
		}
	})
}

// Builtin.NarrowBackward scatters gradOut into zeros of size `size` along dim at
// start: the gradient of Narrow.
func init() {
	Builtin.NarrowBackward = registerBuiltin(OpDef{
		Name: "NarrowBackward",
		Args: []Arg{{"gradOut", KindTensor}, {"dim", KindInt}, {"start", KindInt}, {"size", KindInt}},
		Shape: func(in []*Tensor, args Args) ([]int, error) {
			g := in[0]
			dim, start, size := args.Ints[0], args.Ints[1], args.Ints[2]
			if err := checkDim("", "dim", dim, len(g.shape), g.shape); err != nil {
				return nil, err
			}
			if start < 0 || size < 0 || start > size-g.shape[dim] {
				return nil, &OpError{Arg: "size", Kind: ErrArg, Detail: fmt.Sprintf(
					"start %d and gradOut's size %d along dim %d do not fit in size %d", start, g.shape[dim], dim, size)}
			}
			shape := slices.Clone(g.shape)
			shape[dim] = size
			return shape, nil
		},
		CPU: byElem(narrowBackwardCPU[float32], narrowBackwardCPU[float64], narrowBackwardCPU[half.Float16], narrowBackwardCPU[half.BFloat16]),
	})
}

// narrowBackward returns zeros of gradOut's shape except along dim, where
// it has size elements, with gradOut at start..start+gradOut's size-1: the
// gradient of x.Narrow(dim, start, n) with respect to x, whose size along
// dim is size. It is not itself differentiable.
func narrowBackward(ctx context.Context, gradOut *Tensor, dim, start, size int) (*Tensor, error) {
	return Builtin.NarrowBackward.Call(ctx, []*Tensor{gradOut}, Args{Ints: []int{dim, start, size}})
}

func narrowBackwardCPU[T elem](out *Tensor, in []*Tensor, args Args) {
	g := in[0]
	od, gd := cpuData[T](out), cpuData[T](g)
	clear(od)
	dim, start := args.Ints[0], args.Ints[1]
	l := newLayout(g.shape, []int{start * out.strides[dim], g.offset}, out.strides, g.strides)
	parallelFor(g.Numel(), grain, func(lo, hi int) {
		l.rows(lo, hi, func(off []int, n int) {
			d, o := off[0], off[1]
			for range n {
				od[d] = gd[o]
				d += l.inner[0]
				o += l.inner[1]
			}
		})
	})
}
