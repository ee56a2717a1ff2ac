package ops

import (
	"math"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

// contiguousOp copies its input into a new contiguous tensor. It backs
// Tensor.Contiguous, To and gradient accumulation; a backend without a
// "Contiguous" kernel gets a slower round trip through host memory.
var contiguousOp *Op

func init() {
	contiguousOp = registerBuiltin(OpDef{
		Name:  "Contiguous",
		Args:  []Arg{{"x", KindTensor}},
		Shape: sameShape("x"),
		Backward: func(g *Tensor, _ []*Tensor, _ []float64, _ *Tensor) ([]*Tensor, error) {
			return []*Tensor{g}, nil
		},
		CPU: byElem(contiguousCPU[float32], contiguousCPU[float64], contiguousCPU[half.Float16], contiguousCPU[half.BFloat16]),
	})
}

func contiguousCPU[T elem](out *Tensor, in []*Tensor, _ []float64) {
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

// narrowBackwardOp scatters gradOut into zeros of size `size` along dim at
// start: the gradient of Narrow.
var narrowBackwardOp *Op

func init() {
	narrowBackwardOp = registerBuiltin(OpDef{
		Name: "NarrowBackward",
		Args: []Arg{{"gradOut", KindTensor}, {"dim", KindScalar}, {"start", KindScalar}, {"size", KindScalar}},
		Shape: func(in []*Tensor, sc []float64) ([]int, error) {
			g := in[0]
			dim, start, size := sc[0], sc[1], sc[2]
			for _, v := range sc {
				if v != math.Trunc(v) || v < 0 || v > float64(maxInt/2) {
					return nil, &OpError{Arg: "dim", Kind: ErrArg, Detail: "dim, start and size must be non-negative integers"}
				}
			}
			if int(dim) >= len(g.shape) {
				return nil, &OpError{Arg: "dim", Kind: ErrArg, Detail: "dim is out of range for gradOut"}
			}
			if int(start)+g.shape[int(dim)] > int(size) {
				return nil, &OpError{Arg: "size", Kind: ErrArg, Detail: "start + gradOut's size along dim exceeds size"}
			}
			shape := slices.Clone(g.shape)
			shape[int(dim)] = int(size)
			return shape, nil
		},
		CPU: byElem(narrowBackwardCPU[float32], narrowBackwardCPU[float64], narrowBackwardCPU[half.Float16], narrowBackwardCPU[half.BFloat16]),
	})
}

func narrowBackward(g *Tensor, dim, start, size int) (*Tensor, error) {
	return narrowBackwardOp.Call([]*Tensor{g}, []float64{float64(dim), float64(start), float64(size)})
}

func narrowBackwardCPU[T elem](out *Tensor, in []*Tensor, sc []float64) {
	g := in[0]
	od, gd := cpuData[T](out), cpuData[T](g)
	clear(od)
	dim, start := int(sc[0]), int(sc[1])
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
