package ops

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// normChunk is the fixed number of elements per partial sum of Norm, so the
// result does not depend on GOMAXPROCS.
const normChunk = 1 << 14

func init() {
	Builtin.Norm = registerBuiltin(OpDef{
		Name:  "Norm",
		Args:  []Arg{{"x", KindTensor}},
		Shape: func([]*Tensor, Args) ([]int, error) { return []int{}, nil },
		Backward: func(ctx context.Context, g *Tensor, in []*Tensor, _ Args, out *Tensor) ([]*Tensor, error) {
			gx, err := normBackward(ctx, g, in[0], out)
			return []*Tensor{gx}, err
		},
		CPU: byDType(normCPU[float32], normCPU[float64]),
	})
}

// Norm returns the L2 norm of all elements of x as a 0-d tensor (0 for an
// empty x). Squares are summed in float64 in fixed-size chunks, so float32
// inputs of 2^28 elements stay accurate and the result does not depend on
// the number of goroutines. Its gradient is x/Norm(x), defined as 0 where
// the norm is 0.
func Norm(ctx context.Context, x *Tensor) (*Tensor, error) {
	return Builtin.Norm.Call(ctx, []*Tensor{x}, Args{})
}

func normCPU[T float](out *Tensor, in []*Tensor, _ Args) {
	x := in[0]
	xd := cpuData[T](x)
	n := x.Numel()
	var l *layout
	if !x.IsContiguous() {
		l = newLayout(x.shape, []int{x.offset}, x.strides)
	}
	part := make([]float64, (n+normChunk-1)/normChunk)
	parallelFor(len(part), grain/normChunk, func(lo, hi int) {
		for c := lo; c < hi; c++ {
			a, b := c*normChunk, min((c+1)*normChunk, n)
			var s float64
			if l == nil {
				// Four independent accumulators hide the add latency.
				seg := xd[x.offset+a : x.offset+b]
				var s0, s1, s2, s3 float64
				i := 0
				for ; i+4 <= len(seg); i += 4 {
					f0, f1, f2, f3 := float64(seg[i]), float64(seg[i+1]), float64(seg[i+2]), float64(seg[i+3])
					s0 += f0 * f0
					s1 += f1 * f1
					s2 += f2 * f2
					s3 += f3 * f3
				}
				for ; i < len(seg); i++ {
					f := float64(seg[i])
					s0 += f * f
				}
				s = (s0 + s1) + (s2 + s3)
			} else {
				l.rows(a, b, func(off []int, k int) {
					o, st := off[0], l.inner[0]
					for range k {
						f := float64(xd[o])
						s += f * f
						o += st
					}
				})
			}
			part[c] = s
		}
	})
	var total float64
	for _, p := range part {
		total += p
	}
	cpuData[T](out)[0] = T(math.Sqrt(total))
}

// Builtin.NormBackward computes gradOut * x / norm (0 where norm == 0); gradOut
// and norm are 0-d.
func init() {
	Builtin.NormBackward = registerBuiltin(OpDef{
		Name: "NormBackward",
		Args: []Arg{{"gradOut", KindTensor}, {"x", KindTensor}, {"norm", KindTensor}},
		Shape: func(in []*Tensor, _ Args) ([]int, error) {
			if len(in[0].shape) != 0 {
				return nil, fmt.Errorf("gradOut has shape %v, expected [] (0-d)", in[0].shape)
			}
			if len(in[2].shape) != 0 {
				return nil, fmt.Errorf("norm has shape %v, expected [] (0-d)", in[2].shape)
			}
			return slices.Clone(in[1].shape), nil
		},
		CPU: byDType(normBackwardCPU[float32], normBackwardCPU[float64]),
	})
}

// normBackward returns gradOut * x / norm elementwise (0 where norm is 0):
// the gradient of norm = Norm(x) with respect to x, for the 0-d gradOut of
// norm. It is not itself differentiable.
func normBackward(ctx context.Context, gradOut, x, norm *Tensor) (*Tensor, error) {
	return Builtin.NormBackward.Call(ctx, []*Tensor{gradOut, x, norm}, Args{})
}

func normBackwardCPU[T float](out *Tensor, in []*Tensor, _ Args) {
	g := float64(cpuData[T](in[0])[in[0].offset])
	nrm := float64(cpuData[T](in[2])[in[2].offset])
	if nrm == 0 {
		g, nrm = 0, 1
	}
	ew1(out, in[1], func(dst, xd []T, xo, xs int) {
		for i := range dst {
			dst[i] = T(g * float64(xd[xo]) / nrm)
			xo += xs
		}
	})
}

func init() {
	Builtin.RowSoftmax = registerBuiltin(OpDef{
		Name: "RowSoftmax",
		Args: []Arg{{"x", KindTensor}},
		Shape: func(in []*Tensor, _ Args) ([]int, error) {
			if len(in[0].shape) != 2 {
				return nil, fmt.Errorf("x has shape %v, expected 2-D [B D]", in[0].shape)
			}
			return slices.Clone(in[0].shape), nil
		},
		Backward: func(ctx context.Context, g *Tensor, _ []*Tensor, _ Args, out *Tensor) ([]*Tensor, error) {
			gx, err := rowSoftmaxBackward(ctx, g, out)
			return []*Tensor{gx}, err
		},
		CPU: byDType(rowSoftmaxCPU[float32], rowSoftmaxCPU[float64]),
	})
}

// RowSoftmax returns the softmax of each row of a 2-D tensor x of shape
// [B, D]: out[i][j] = exp(x[i][j]-m_i) / Σ_k exp(x[i][k]-m_i), m_i being
// the row maximum (numerically stable). x may be any strided view.
func RowSoftmax(ctx context.Context, x *Tensor) (*Tensor, error) {
	return Builtin.RowSoftmax.Call(ctx, []*Tensor{x}, Args{})
}

func rowSoftmaxCPU[T float](out *Tensor, in []*Tensor, _ Args) {
	x := in[0]
	B, D := x.shape[0], x.shape[1]
	s0, s1 := x.strides[0], x.strides[1]
	xd, od := cpuData[T](x), cpuData[T](out)
	if B == 0 || D == 0 {
		return
	}
	parallelFor(B, max(1, grain/D), func(lo, hi int) {
		e := make([]float64, D)
		for i := lo; i < hi; i++ {
			base := x.offset + i*s0
			m := math.Inf(-1)
			for j := range D {
				m = max(m, float64(xd[base+j*s1]))
			}
			var sum float64
			for j := range e {
				e[j] = math.Exp(float64(xd[base+j*s1]) - m)
				sum += e[j]
			}
			row := od[i*D : (i+1)*D]
			for j := range row {
				row[j] = T(e[j] / sum)
			}
		}
	})
}

// Builtin.RowSoftmaxBackward computes y * (gradOut - rowsum(gradOut*y)) for
// y = RowSoftmax(x).
func init() {
	Builtin.RowSoftmaxBackward = registerBuiltin(OpDef{
		Name: "RowSoftmaxBackward",
		Args: []Arg{{"gradOut", KindTensor}, {"y", KindTensor}},
		Shape: func(in []*Tensor, args Args) ([]int, error) {
			if len(in[0].shape) != 2 {
				return nil, fmt.Errorf("gradOut has shape %v, expected 2-D [B D]", in[0].shape)
			}
			return sameShape("gradOut", "y")(in, args)
		},
		CPU: byDType(rowSoftmaxBackwardCPU[float32], rowSoftmaxBackwardCPU[float64]),
	})
}

// rowSoftmaxBackward returns y * (gradOut - rowsum(gradOut*y)): the
// gradient of y = RowSoftmax(x) with respect to x, for the gradient gradOut
// of y ([B, D], like y). It is not itself differentiable.
func rowSoftmaxBackward(ctx context.Context, gradOut, y *Tensor) (*Tensor, error) {
	return Builtin.RowSoftmaxBackward.Call(ctx, []*Tensor{gradOut, y}, Args{})
}

func rowSoftmaxBackwardCPU[T float](out *Tensor, in []*Tensor, _ Args) {
	g, y := in[0], in[1]
	B, D := g.shape[0], g.shape[1]
	gd, yd, od := cpuData[T](g), cpuData[T](y), cpuData[T](out)
	if B == 0 || D == 0 {
		return
	}
	parallelFor(B, max(1, grain/D), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			gb, yb := g.offset+i*g.strides[0], y.offset+i*y.strides[0]
			gs, ys := g.strides[1], y.strides[1]
			var dot float64
			for j := range D {
				dot += float64(gd[gb+j*gs]) * float64(yd[yb+j*ys])
			}
			row := od[i*D : (i+1)*D]
			for j := range row {
				row[j] = T(float64(yd[yb+j*ys]) * (float64(gd[gb+j*gs]) - dot))
			}
		}
	})
}
