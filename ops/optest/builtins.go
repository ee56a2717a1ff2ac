package optest

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/backward"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// Builtins returns the specs of package ops's built-in ops (ops.Builtin,
// each through its function or, for the backward ops, package backward's):
// the one conformance suite that every implementation of them runs, the
// CPU kernels and a device backend's alike. A backend's tests run each
// with Run (ops/cuda's do), so the built-ins' kernels are checked as a
// user's op is: every dtype, layout and device, bad inputs, GradCheck, a
// stream of their own and a CUDA graph, with the tolerance table.
//
// The cases reach each kernel's paths: elementwise shapes of up to
// 257*129 elements and, where a CUDA device runs them (not under -short),
// 2^20+3 (the vectorized kernels' large grids); [B, D] rows of 1 to 70000
// elements (a warp, a block, shared memory or three reads per row) and,
// with a CUDA device, 700 rows of 9000 (more rows than resident blocks);
// products whose sizes are not multiples of a tile.
func Builtins() []Spec {
	gpu, _ := cuda.Available()
	large := gpu && !testing.Short()
	elem := func(n int) [][][]int {
		cases := ElementwiseShapes(n)
		for _, s := range [][]int{{1023}, {257, 129}} {
			cases = append(cases, repeat(s, n))
		}
		if large {
			cases = append(cases, repeat([]int{1<<20 + 3}, n))
		}
		return cases
	}
	var rows [][][]int // RowSoftmax's
	for _, s := range [][]int{{0, 5}, {5, 0}, {1, 1}, {7, 5}, {33, 65}, {300, 260}, {3, 1024}, {2, 1025},
		{3, 3000}, {3, 8192}, {2, 16000}, {3, 16384}, {2, 70000}} {
		rows = append(rows, [][]int{s})
	}
	if gpu {
		rows = append(rows, [][]int{{700, 9000}})
	}
	var normBw [][][]int // NormBackward's: gradOut and norm 0-d
	for _, c := range ElementwiseShapes(1) {
		normBw = append(normBw, [][]int{{}, c[0], {}})
	}
	b := &ops.Builtin
	narrow := [][][]int{{{0, 5}}, {{1, 1}}, {{7, 5}}, {{4, 5, 6}}, {{4, 0, 6}}, {{33, 65}}}
	specs := []Spec{
		{Name: b.AddScalar.Name(), Shapes: elem(1),
			Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
				return ops.AddScalar(ctx, in[0], 0.75)
			},
			Ref: Elementwise(func(v []float64) float64 { return v[0] + 0.75 })},
		{Name: b.Scale.Name(), Shapes: elem(1),
			Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return ops.Scale(ctx, in[0], -1.5) },
			Ref:  Elementwise(func(v []float64) float64 { return -1.5 * v[0] })},
		{Name: b.Axpby.Name(), Shapes: elem(2),
			Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
				return ops.Axpby(ctx, 2, in[0], -0.5, in[1])
			},
			Ref: Elementwise(func(v []float64) float64 { return 2*v[0] - 0.5*v[1] })},
		{Name: b.Polynomial.Name(), Shapes: elem(1),
			Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
				return ops.Polynomial(ctx, in[0], 0.5, -1, 2, 0.25)
			},
			Ref: Elementwise(func(v []float64) float64 { x := v[0]; return 0.5*x*x*x - x*x + 2*x + 0.25 })},
		{Name: b.PolynomialBackward.Name(), Shapes: elem(2), NoGrad: true,
			Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
				return backward.Polynomial(ctx, in[0], in[1], 0.5, -1, 2)
			},
			Ref: Elementwise(func(v []float64) float64 { x := v[1]; return v[0] * (1.5*x*x - 2*x + 2) })},
		{Name: b.Contiguous.Name(), Shapes: elem(1), // the op itself: Tensor.Contiguous returns a contiguous input as it is
			Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
				return b.Contiguous.Call(ctx, in, ops.Args{})
			},
			Ref: Elementwise(func(v []float64) float64 { return v[0] })},
		{Name: b.Norm.Name(), Shapes: elem(1),
			Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return ops.Norm(ctx, in[0]) },
			Ref: func(in []Values) Values {
				s := 0.0
				for _, v := range in[0].Data {
					s += v * v
				}
				return Values{Shape: []int{}, Data: []float64{math.Sqrt(s)}}
			}},
		{Name: b.NormBackward.Name(), Shapes: normBw, GradShapes: [][]int{{}, {3, 4}, {}}, NoGrad: true,
			Lo: 0.5, Hi: 2, // the norm away from 0
			Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
				return backward.Norm(ctx, in[0], in[1], in[2])
			},
			Ref: func(in []Values) Values {
				g, n := in[0].Data[0], in[2].Data[0]
				out := Values{Shape: slices.Clone(in[1].Shape), Data: make([]float64, len(in[1].Data))}
				for i, x := range in[1].Data {
					if n != 0 {
						out.Data[i] = g * x / n
					}
				}
				return out
			}},
		{Name: b.NarrowBackward.Name(), Shapes: narrow, GradShapes: [][]int{{3, 4}}, NoGrad: true,
			// gradOut's dim 1 placed at 2 in a dim of 5 more elements.
			Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
				if in[0] == nil || in[0].Dim() < 2 {
					return backward.Narrow(ctx, in[0], 1, 2, 5)
				}
				return backward.Narrow(ctx, in[0], 1, 2, in[0].Shape()[1]+5)
			},
			Ref: narrowBackwardRef},
		{Name: b.RowSoftmax.Name(), Shapes: rows, GradShapes: [][]int{{3, 5}}, Lo: -4, Hi: 4,
			Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return ops.RowSoftmax(ctx, in[0]) },
			Ref:  rowSoftmaxRef},
		{Name: b.RowSoftmaxBackward.Name(), Shapes: withSecond(rows), GradShapes: [][]int{{3, 5}, {3, 5}}, NoGrad: true,
			Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
				return backward.RowSoftmax(ctx, in[0], in[1])
			},
			Ref: rowSoftmaxBackwardRef},
		{Name: b.MatMul.Name(), Shapes: MatMulShapes, GradShapes: [][]int{{3, 4}, {4, 2}}, Tol: MatMulTolerance,
			Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return ops.MatMul(ctx, in[0], in[1]) },
			Ref:  MatMul},
	}
	for _, to := range AllDTypes {
		specs = append(specs, Spec{Name: fmt.Sprintf("%s(%v)", b.AsType.Name(), to), Shapes: elem(1),
			// Only to float64 is the output exact enough for GradCheck's differences.
			NoGrad: to != ops.Float64,
			Call:   func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return in[0].AsType(ctx, to) },
			Ref:    Elementwise(func(v []float64) float64 { return v[0] }),
			// One rounding to the output's dtype or within the input's.
			Tol: func(d ops.DType) (rtol, atol float64) {
				r1, a1 := Tolerance(d)
				r2, a2 := Tolerance(to)
				return max(r1, r2), max(a1, a2)
			}})
	}
	return specs
}

// repeat returns n copies of shape.
func repeat(shape []int, n int) [][]int {
	c := make([][]int, n)
	for i := range c {
		c[i] = slices.Clone(shape)
	}
	return c
}

// withSecond returns the cases with their one input's shape twice.
func withSecond(cases [][][]int) [][][]int {
	out := make([][][]int, len(cases))
	for i, c := range cases {
		out[i] = repeat(c[0], 2)
	}
	return out
}

// narrowBackwardRef is the Ref of NarrowBackward as Builtins calls it:
// zeros with 5 more elements along dim 1, gradOut's at 2.
func narrowBackwardRef(in []Values) Values {
	g := in[0]
	shape := slices.Clone(g.Shape)
	shape[1] += 5
	out := Values{Shape: shape, Data: make([]float64, numel(shape))}
	inner := numel(g.Shape[2:])
	for i, v := range g.Data {
		outer, rest := i/(g.Shape[1]*inner), i%(g.Shape[1]*inner)
		j, k := rest/inner, rest%inner
		out.Data[(outer*shape[1]+j+2)*inner+k] = v
	}
	return out
}

// rowSoftmaxRef is the softmax of each row of a [B, D] input.
func rowSoftmaxRef(in []Values) Values {
	x := in[0]
	b, d := x.Shape[0], x.Shape[1]
	out := Values{Shape: []int{b, d}, Data: make([]float64, b*d)}
	for r := range b {
		row := x.Data[r*d : (r+1)*d]
		m := math.Inf(-1)
		for _, v := range row {
			m = max(m, v)
		}
		s := 0.0
		for j, v := range row {
			out.Data[r*d+j] = math.Exp(v - m)
			s += out.Data[r*d+j]
		}
		for j := range row {
			out.Data[r*d+j] /= s
		}
	}
	return out
}

// rowSoftmaxBackwardRef is y * (gradOut - rowsum(gradOut*y)) for
// in = gradOut, y ([B, D]).
func rowSoftmaxBackwardRef(in []Values) Values {
	g, y := in[0], in[1]
	b, d := y.Shape[0], y.Shape[1]
	out := Values{Shape: []int{b, d}, Data: make([]float64, b*d)}
	for r := range b {
		dot := 0.0
		for j := range d {
			dot += g.Data[r*d+j] * y.Data[r*d+j]
		}
		for j := range d {
			out.Data[r*d+j] = y.Data[r*d+j] * (g.Data[r*d+j] - dot)
		}
	}
	return out
}
