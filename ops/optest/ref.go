package optest

import (
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// Elementwise returns the Ref of an elementwise op: the output has the
// shape of the first input, and element i is f of the inputs' elements i.
func Elementwise(f func(v []float64) float64) func(in []Values) Values {
	return func(in []Values) Values {
		out := Values{Shape: slices.Clone(in[0].Shape), Data: make([]float64, len(in[0].Data))}
		v := make([]float64, len(in))
		for i := range out.Data {
			for j, x := range in {
				v[j] = x.Data[i]
			}
			out.Data[i] = f(v)
		}
		return out
	}
}

// MatMul is the Ref of a matrix product: in[0] [M, K] times in[1] [K, N].
func MatMul(in []Values) Values {
	a, b := in[0], in[1]
	m, k, n := a.Shape[0], a.Shape[1], b.Shape[1]
	out := Values{Shape: []int{m, n}, Data: make([]float64, m*n)}
	for i := range m {
		for j := range n {
			s := 0.0
			for l := range k {
				s += a.Data[i*k+l] * b.Data[l*n+j]
			}
			out.Data[i*n+j] = s
		}
	}
	return out
}

// MatMulShapes are the cases of a matrix product: empty products (M, K or
// N 0), one element, small, and sizes that are not multiples of usual tile
// sizes, K at most 129.
var MatMulShapes = [][][]int{
	{{0, 3}, {3, 2}}, {{3, 0}, {0, 2}}, {{2, 3}, {3, 0}}, {{1, 1}, {1, 1}},
	{{7, 5}, {5, 3}}, {{33, 65}, {65, 17}}, {{127, 129}, {129, 65}},
}

// MatMulTolerance is the Tol of a matrix product on MatMulShapes whose
// kernels accumulate in the input dtype: a length-K dot product summed in
// any order is within K*u of the sum of its |terms| (u = 2^-24 in float32,
// 2^-53 in float64), about 32 here (K <= 129, elements in [-1, 1)), which
// the absolute tolerances cover twice over; the 16-bit dtypes keep
// Tolerance. It assumes plain FMA arithmetic (no TF32).
func MatMulTolerance(d ops.DType) (rtol, atol float64) {
	switch d {
	case ops.Float32:
		return 1e-6, 5e-4
	case ops.Float64:
		return 1e-12, 1e-11
	}
	return Tolerance(d)
}
