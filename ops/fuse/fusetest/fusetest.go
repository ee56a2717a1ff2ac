// Package fusetest holds the cases that test package ops/fuse on every
// device: chains with their float64 references, and the checks that run
// them in every dtype and layout. ops/fuse's tests run them on the CPU,
// ops/fuse/fusecuda's on the GPU (and through ops/optest); the benchmarks
// (bench/cmd/fusebench) time its chains (Chain20, Polynomial).
package fusetest

import (
	"math"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse"
	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
	"github.com/rules-cuda-go/rules_cuda_go/ops/internal/testkit"
)

// Case is a chain under test.
type Case struct {
	Name    string
	Chain   *fuse.Chain
	Scalars []float64
	// Ref computes the outputs of one element from the inputs' values (as
	// rounded to the dtype under test) and the scalars, in float64.
	Ref func(x, s []float64) []float64
	// Lo and Hi bound the inputs' values (both 0: [-2, 2)).
	Lo, Hi float64
	// NoGrad skips GradCheck (piecewise-constant chains).
	NoGrad bool
	// Tol scales the default tolerance (0: 1).
	Tol float64
}

// Tolerance is what a result may differ from the float64 reference by
// (rtol*|want| + atol, rtol = atol) for outputs of dtype d: the chain
// column of the one tolerance table (testkit.ChainTolerance).
func Tolerance(d ops.DType) float64 {
	return testkit.For(d).Chain
}

// AllDTypes are the four dtypes.
var AllDTypes = []ops.DType{ops.Float32, ops.Float64, ops.Float16, ops.BFloat16}

// Shapes are the shapes each case runs on: 0-d, empty, one element, odd
// sizes, 2-D and 3-D, and more than one block with a vector tail.
var Shapes = [][]int{{}, {0}, {1}, {7}, {3, 5}, {2, 3, 4}, {33, 65}, {9, 1031}}

// Layouts are the input layouts.
var Layouts = []testkit.Layout{testkit.Contiguous, testkit.Offset, testkit.Strided, testkit.Transposed}

// RoundF16 and RoundBF16 round to the 16-bit types (through float32).
func RoundF16(x float64) float64 { return float64(half.Float16From(float32(x)).Float32()) }

// RoundBF16 rounds to bfloat16 through float32.
func RoundBF16(x float64) float64 { return float64(half.BFloat16From(float32(x)).Float32()) }

func one(f func(x float64) float64) func(x, s []float64) []float64 {
	return func(x, _ []float64) []float64 { return []float64{f(x[0])} }
}

func two(f func(a, b float64) float64) func(x, s []float64) []float64 {
	return func(x, _ []float64) []float64 { return []float64{f(x[0], x[1])} }
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Silu is a DeviceFunc with its CPU form and derivative.
var Silu = &fuse.DeviceFunc{
	Name:   "silu",
	Source: `template <typename T> __device__ T silu(T x) { return x / (T(1) + exp(-x)); }`,
	Arity:  1,
	CPU:    func(a []float64) float64 { return a[0] / (1 + math.Exp(-a[0])) },
	Grad: func(a []fuse.Expr) []fuse.Expr {
		s := fuse.Sigmoid(a[0])
		return []fuse.Expr{s.Mul(fuse.Const(1).Add(a[0].Mul(fuse.Const(1).Sub(s))))}
	},
}

// Chain20 is the 20-op chain: y+0.25 and y*0.5 alternating.
func Chain20() *fuse.Chain {
	y := fuse.In(0)
	for i := range 20 {
		if i%2 == 0 {
			y = y.AddScalar(0.25)
		} else {
			y = y.MulScalar(0.5)
		}
	}
	return fuse.MustNew("chain20", []fuse.Expr{y}, fuse.Options{})
}

// Polynomial is a*x^3 + b*x^2 + c*x + d (Horner) with a, b, c, d as
// Arg(0..3), the fused form of ops.Polynomial.
func Polynomial() *fuse.Chain {
	x := fuse.In(0)
	p := fuse.Arg(0).Mul(x).Add(fuse.Arg(1)).Mul(x).Add(fuse.Arg(2)).Mul(x).Add(fuse.Arg(3))
	return fuse.MustNew("polynomial", []fuse.Expr{p}, fuse.Options{})
}

// Cases returns the cases.
func Cases() []Case {
	x, y := fuse.In(0), fuse.In(1)
	u := func(name string, e fuse.Expr, f func(float64) float64, lo, hi float64) Case {
		return Case{Name: name, Chain: fuse.MustNew(name, []fuse.Expr{e}, fuse.Options{}), Ref: one(f), Lo: lo, Hi: hi}
	}
	b := func(name string, e fuse.Expr, f func(a, b float64) float64, lo, hi float64, noGrad bool) Case {
		return Case{Name: name, Chain: fuse.MustNew(name, []fuse.Expr{e}, fuse.Options{}), Ref: two(f), Lo: lo, Hi: hi, NoGrad: noGrad}
	}
	sig := func(v float64) float64 { return 1 / (1 + math.Exp(-v)) }
	cs := []Case{
		u("neg", fuse.Neg(x), func(v float64) float64 { return -v }, 0, 0),
		u("abs", fuse.Abs(x), math.Abs, 0.1, 2),
		u("exp", fuse.Exp(x), math.Exp, 0, 0),
		u("log", fuse.Log(x), math.Log, 0.25, 4),
		u("sqrt", fuse.Sqrt(x), math.Sqrt, 0.25, 4),
		u("tanh", fuse.Tanh(x), math.Tanh, 0, 0),
		u("sigmoid", fuse.Sigmoid(x), sig, 0, 0),
		u("erf", fuse.Erf(x), math.Erf, 0, 0),
		u("sin", fuse.Sin(x), math.Sin, 0, 0),
		u("cos", fuse.Cos(x), math.Cos, 0, 0),
		b("add", x.Add(y), func(a, b float64) float64 { return a + b }, 0, 0, false),
		b("sub", x.Sub(y), func(a, b float64) float64 { return a - b }, 0, 0, false),
		b("mul", x.Mul(y), func(a, b float64) float64 { return a * b }, 0, 0, false),
		b("div", x.Div(y), func(a, b float64) float64 { return a / b }, 0.5, 2, false),
		b("pow", fuse.Pow(x, y), math.Pow, 0.5, 2, false),
		b("min", fuse.Min(x, y), math.Min, 0, 0, false),
		b("max", fuse.Max(x, y), math.Max, 0, 0, false),
		b("lt", fuse.Lt(x, y), func(a, b float64) float64 { return b2f(a < b) }, 0, 0, true),
		b("le", fuse.Le(x, y), func(a, b float64) float64 { return b2f(a <= b) }, 0, 0, true),
		b("gt", fuse.Gt(x, y), func(a, b float64) float64 { return b2f(a > b) }, 0, 0, true),
		b("ge", fuse.Ge(x, y), func(a, b float64) float64 { return b2f(a >= b) }, 0, 0, true),
		b("eq", fuse.Eq(x, x.Mul(fuse.Gt(y, fuse.Const(0)))), func(a, b float64) float64 { return b2f(a == a*b2f(b > 0)) }, 0, 0, true),
		b("ne", fuse.Ne(x, x.Mul(fuse.Gt(y, fuse.Const(0)))), func(a, b float64) float64 { return b2f(a != a*b2f(b > 0)) }, 0, 0, true),
		b("where", fuse.Where(fuse.Gt(x, fuse.Const(0)), x.MulScalar(2), y),
			func(a, b float64) float64 {
				if a > 0 {
					return 2 * a
				}
				return b
			}, 0, 0, false),
		{Name: "scalars", Chain: fuse.MustNew("scalars", []fuse.Expr{fuse.Arg(0).Mul(x).Add(fuse.Arg(1))}, fuse.Options{}),
			Scalars: []float64{1.5, -0.25}, Ref: func(x, s []float64) []float64 { return []float64{s[0]*x[0] + s[1]} }},
		{Name: "silu", Chain: fuse.MustNew("silu", []fuse.Expr{Silu.Call(x)}, fuse.Options{}),
			Ref: one(func(v float64) float64 { return v / (1 + math.Exp(-v)) })},
		{Name: "gelu", Chain: fuse.MustNew("gelu", []fuse.Expr{x.MulScalar(0.5).Mul(fuse.Const(1).Add(fuse.Erf(x.MulScalar(1 / math.Sqrt2))))}, fuse.Options{}),
			Ref: one(func(v float64) float64 { return 0.5 * v * (1 + math.Erf(v/math.Sqrt2)) })},
		{Name: "chain20", Chain: Chain20(), Ref: one(func(v float64) float64 {
			for i := range 20 {
				if i%2 == 0 {
					v += 0.25
				} else {
					v *= 0.5
				}
			}
			return v
		})},
		{Name: "polynomial", Chain: Polynomial(), Scalars: []float64{0.5, -1.25, 2, 0.75},
			Ref: func(x, s []float64) []float64 {
				v := x[0]
				return []float64{s[0]*v*v*v + s[1]*v*v + s[2]*v + s[3]}
			}},
		{Name: "outputs3", Chain: fuse.MustNew("outputs3", []fuse.Expr{x.Add(y), x.Mul(y), fuse.Tanh(x.Sub(y))}, fuse.Options{}),
			Ref: func(x, _ []float64) []float64 { return []float64{x[0] + x[1], x[0] * x[1], math.Tanh(x[0] - x[1])} }},
		{Name: "casts", Chain: fuse.MustNew("casts", []fuse.Expr{
			fuse.Cast(x, ops.Float16), fuse.Cast(fuse.Exp(fuse.Cast(x, ops.Float64)), ops.BFloat16),
			fuse.Cast(fuse.Cast(x, ops.BFloat16).MulScalar(3), ops.Float32), fuse.Cast(x.MulScalar(1.0/3), ops.Float64),
		}, fuse.Options{}), Ref: func(x, _ []float64) []float64 {
			return []float64{RoundF16(x[0]), RoundBF16(math.Exp(x[0])), RoundBF16(x[0]) * 3, x[0] / 3}
		}, Tol: 2, NoGrad: true},
		{Name: "casts_grad", Chain: fuse.MustNew("casts_grad", []fuse.Expr{
			fuse.Exp(fuse.Cast(x, ops.Float64)).Mul(fuse.Cast(y, ops.Float64)),
		}, fuse.Options{}), Ref: func(x, _ []float64) []float64 { return []float64{math.Exp(x[0]) * x[1]} }},
	}
	return cs
}
