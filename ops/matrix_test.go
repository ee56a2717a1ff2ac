package ops

import (
	"context"
	"fmt"
	"math"
	"testing"
)

var softmaxShapes = [][]int{{0, 5}, {5, 0}, {1, 1}, {7, 5}, {33, 65}, {257, 129}}

func refSoftmax(x []float64, B, D int) []float64 {
	out := make([]float64, len(x))
	for i := range B {
		m := math.Inf(-1)
		for j := range D {
			m = math.Max(m, x[i*D+j])
		}
		var s float64
		for j := range D {
			s += math.Exp(x[i*D+j] - m)
		}
		for j := range D {
			out[i*D+j] = math.Exp(x[i*D+j]-m) / s
		}
	}
	return out
}

func TestRowSoftmax(t *testing.T) {
	ctx := context.Background()
	for _, dtype := range dtypes {
		for _, shape := range softmaxShapes {
			for _, kind := range kindsFor(shape) {
				t.Run(fmt.Sprintf("%v/%v/%s", dtype, shape, kind), func(t *testing.T) {
					B, D := shape[0], shape[1]
					xd := roundTo(dtype, randData(10, B*D, -8, 8))
					x := makeView(t, dtype, xd, shape, kind)
					out := must(t)(RowSoftmax(ctx, x))
					want := refSoftmax(xd, B, D)
					u := unitRoundoff(dtype)
					got := values(t, out)
					// Computed in float64, rounded once (float16: plus half a
					// subnormal spacing for results below 2^-14).
					closeTo(t, "RowSoftmax", got, want, func(i int) float64 { return 2*u*want[i] + 1e-15 + tiny(dtype) })
					// Property: every (non-empty) row sums to 1.
					for i := range B * min(D, 1) {
						var s float64
						for j := range D {
							s += got[i*D+j]
						}
						if math.Abs(s-1) > float64(D)*(u*2+tiny(dtype)) {
							t.Fatalf("row %d sums to %.17g", i, s)
						}
					}
				})
			}
		}
	}
}

func TestRowSoftmaxStable(t *testing.T) {
	ctx := context.Background()
	x := fromData(t, Float32, []float64{1000, 1001, 1002, -1000, -1001, -1002}, 2, 3)
	got := values(t, must(t)(RowSoftmax(ctx, x)))
	want := refSoftmax([]float64{0, 1, 2, 0, -1, -2}, 2, 3) // shift-invariant
	closeTo(t, "stable softmax", got, want, func(int) float64 { return 1e-7 })
}

func TestRowSoftmaxBackward(t *testing.T) {
	ctx := context.Background()
	for _, dtype := range dtypes {
		for _, shape := range softmaxShapes {
			for _, kind := range kindsFor(shape) {
				t.Run(fmt.Sprintf("%v/%v/%s", dtype, shape, kind), func(t *testing.T) {
					B, D := shape[0], shape[1]
					yd := roundTo(dtype, refSoftmax(randData(11, B*D, -3, 3), B, D))
					gd := roundTo(dtype, randData(12, B*D, -1, 1))
					y := makeView(t, dtype, yd, shape, kind)
					g := makeView(t, dtype, gd, shape, kKindOther(shape, kind))
					out := must(t)(Builtin.RowSoftmaxBackward.Call(ctx, []*Tensor{g, y}, Args{}))
					want, scale := make([]float64, B*D), make([]float64, B*D)
					for i := range B {
						var dot, adot float64
						for j := range D {
							dot += gd[i*D+j] * yd[i*D+j]
							adot += math.Abs(gd[i*D+j] * yd[i*D+j])
						}
						for j := range D {
							k := i*D + j
							want[k] = yd[k] * (gd[k] - dot)
							scale[k] = yd[k] * (math.Abs(gd[k]) + adot)
						}
					}
					closeTo(t, "RowSoftmaxBackward", values(t, out), want, elemTol(dtype, want, scale))
				})
			}
		}
	}
}

type mmCase struct{ M, K, N int }

var mmCases = []mmCase{{0, 5, 3}, {1, 1, 1}, {7, 5, 3}, {33, 65, 17}, {257, 129, 65}, {5, 0, 4}, {3, 4, 0}, {48, 300, 260}}

func TestMatMul(t *testing.T) {
	ctx := context.Background()
	for _, dtype := range dtypes {
		for _, c := range mmCases {
			ad := roundTo(dtype, randData(13, c.M*c.K, -1, 1))
			bd := roundTo(dtype, randData(14, c.K*c.N, -1, 1))
			want, scale := make([]float64, c.M*c.N), make([]float64, c.M*c.N)
			for i := range c.M {
				for j := range c.N {
					for k := range c.K {
						want[i*c.N+j] += ad[i*c.K+k] * bd[k*c.N+j]
						scale[i*c.N+j] += math.Abs(ad[i*c.K+k] * bd[k*c.N+j])
					}
				}
			}
			for _, ka := range []string{kContig, kTransposed, kNarrowed, kStrided} {
				kb := map[string]string{kContig: kNarrowed, kTransposed: kTransposed, kNarrowed: kContig, kStrided: kTransposed}[ka]
				t.Run(fmt.Sprintf("%v/%dx%dx%d/%s,%s", dtype, c.M, c.K, c.N, ka, kb), func(t *testing.T) {
					a := makeView(t, dtype, ad, []int{c.M, c.K}, ka)
					b := makeView(t, dtype, bd, []int{c.K, c.N}, kb)
					out := must(t)(MatMul(ctx, a, b))
					if s := out.Shape(); s[0] != c.M || s[1] != c.N {
						t.Fatalf("shape %v", s)
					}
					// Dot-product error bound: ~K roundings of the
					// accumulated magnitudes in the compute type (float32
					// for the 16-bit dtypes), scaled by K, plus one rounding
					// of the result to the dtype.
					u, uc := unitRoundoff(dtype), computeRoundoff(dtype)
					closeTo(t, "MatMul", values(t, out), want, func(i int) float64 {
						return 2*u*math.Abs(want[i]) + 2*float64(c.K+2)*uc*scale[i] + tiny(dtype) + 1e-300
					})
				})
			}
		}
	}
}
