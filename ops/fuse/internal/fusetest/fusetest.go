// Package fusetest holds the cases that test package ops/fuse on every
// device: chains with their float64 references, and the checks that run
// them in every dtype and layout. ops/fuse's tests run them on the CPU,
// ops/fuse/fusecuda's on the GPU (and through ops/optest).
package fusetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse"
	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
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
// (rtol*|want| + atol, rtol = atol) for outputs of dtype d: float64 1e-12,
// float32 1e-5 (chains of several steps, each rounded to float32, CUDA's
// math functions within 2 ulp), float16 2^-9 and bfloat16 2^-6 (computed
// in float32 and rounded once, a few float32 roundings before).
func Tolerance(d ops.DType) float64 {
	switch d {
	case ops.Float32:
		return 1e-5
	case ops.Float16:
		return 0x1p-9
	case ops.BFloat16:
		return 0x1p-6
	}
	return 1e-12
}

// AllDTypes are the four dtypes.
var AllDTypes = []ops.DType{ops.Float32, ops.Float64, ops.Float16, ops.BFloat16}

// Shapes are the shapes each case runs on: 0-d, empty, one element, odd
// sizes, 2-D and 3-D, and more than one block with a vector tail.
var Shapes = [][]int{{}, {0}, {1}, {7}, {3, 5}, {2, 3, 4}, {33, 65}, {9, 1031}}

// Layouts are the input layouts.
var Layouts = []string{"contiguous", "offset", "strided", "transposed"}

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

// Input returns a tensor of dtype on dev whose logical values are data
// (rounded to dtype), laid out as layout, and those rounded values.
func Input(ctx context.Context, data []float64, shape []int, dtype ops.DType, layout string, dev ops.Device) (*ops.Tensor, []float64, error) {
	r := len(shape)
	var t *ops.Tensor
	var err error
	switch {
	case layout == "offset":
		t, err = ops.FromFloat64(append([]float64{7, 7, 7}, data...), len(data)+3)
	case layout == "strided":
		buf := make([]float64, 2*len(data))
		for i, v := range data {
			buf[2*i], buf[2*i+1] = v, math.NaN()
		}
		t, err = ops.FromFloat64(buf, append(append([]int{}, shape...), 2)...)
	case layout == "transposed" && r >= 2:
		ts := append([]int{}, shape...)
		ts[r-2], ts[r-1] = ts[r-1], ts[r-2]
		buf := make([]float64, len(data))
		// buf in the transposed shape holds data's element (.., i, j) at (.., j, i).
		rows, cols := shape[r-2], shape[r-1]
		for b := 0; b < len(data)/max(rows*cols, 1); b++ {
			for i := range rows {
				for j := range cols {
					buf[b*rows*cols+j*rows+i] = data[b*rows*cols+i*cols+j]
				}
			}
		}
		t, err = ops.FromFloat64(buf, ts...)
	default:
		t, err = ops.FromFloat64(data, shape...)
	}
	if err != nil {
		return nil, nil, err
	}
	if t, err = t.AsType(ctx, dtype); err != nil {
		return nil, nil, err
	}
	if t, err = t.To(ctx, dev); err != nil {
		return nil, nil, err
	}
	switch {
	case layout == "offset":
		if t, err = t.Narrow(0, 3, len(data)); err == nil {
			t, err = t.Reshape(shape...)
		}
	case layout == "strided":
		if t, err = t.Narrow(r, 0, 1); err == nil {
			t, err = t.Reshape(shape...)
		}
	case layout == "transposed" && r >= 2:
		t, err = t.Transpose(r-2, r-1)
	}
	if err != nil {
		return nil, nil, err
	}
	vals, err := t.Float64s()
	return t, vals, err
}

func numel(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}

func randData(seed uint64, n int, lo, hi float64) []float64 {
	if lo == 0 && hi == 0 {
		lo, hi = -2, 2
	}
	r := rand.New(rand.NewPCG(seed, 99))
	d := make([]float64, n)
	for i := range d {
		d[i] = lo + (hi-lo)*r.Float64()
	}
	return d
}

// compare checks got against want within tol.
func compare(got, want []float64, tol float64) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d values, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if math.IsNaN(w) || math.IsNaN(g) {
			if math.IsNaN(w) != math.IsNaN(g) {
				return fmt.Errorf("element %d of %d is %v, want %v", i, len(want), g, w)
			}
			continue
		}
		if g == w {
			continue
		}
		if math.Abs(g-w) > tol*math.Abs(w)+tol {
			return fmt.Errorf("element %d of %d is %v, want %v (tolerance %g)", i, len(want), g, w, tol)
		}
	}
	return nil
}

// CheckValues runs a case on dev in every dtype, shape and layout and
// compares with its reference.
func CheckValues(ctx context.Context, c Case, dev ops.Device) error {
	nIn := c.Chain.NumInputs()
	var errs []error
	for _, d := range AllDTypes {
		for si, shape := range Shapes {
			for _, layout := range Layouts {
				if layout == "transposed" && len(shape) < 2 {
					continue
				}
				in := make([]*ops.Tensor, nIn)
				vals := make([][]float64, nIn)
				for j := range nIn {
					var err error
					data := randData(uint64(100*si+j), numel(shape), c.Lo, c.Hi)
					if in[j], vals[j], err = Input(ctx, data, shape, d, layout, dev); err != nil {
						return fmt.Errorf("%s: making input %d %v %v %s: %w", c.Name, j, d, shape, layout, err)
					}
				}
				what := fmt.Sprintf("%s on %v, %v %v %s", c.Name, dev, d, shape, layout)
				outs, err := c.Chain.Call(ctx, in, c.Scalars...)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", what, err))
					continue
				}
				got := make([][]float64, len(outs))
				for k, o := range outs {
					if fmt.Sprint(o.Shape()) != fmt.Sprint(shape) || !o.IsContiguous() || o.Device() != dev {
						errs = append(errs, fmt.Errorf("%s: output %d has shape %v on %v, want contiguous %v", what, k, o.Shape(), o.Device(), shape))
					}
					if got[k], err = o.Float64s(); err != nil {
						return err
					}
				}
				want := make([][]float64, len(outs))
				x := make([]float64, nIn)
				for i := range numel(shape) {
					for j := range nIn {
						x[j] = vals[j][i]
					}
					for k, v := range c.Ref(x, c.Scalars) {
						want[k] = append(want[k], v)
					}
				}
				for k, o := range outs {
					tol := Tolerance(o.DType())
					if d != o.DType() { // a cast output: inputs' precision counts too
						tol = max(tol, Tolerance(d))
					}
					if c.Tol != 0 {
						tol *= c.Tol
					}
					if err := compare(got[k], want[k], tol); err != nil {
						errs = append(errs, fmt.Errorf("%s: output %d (%v): %w", what, k, o.DType(), err))
					}
					o.Free()
				}
				if len(errs) > 10 {
					return errors.Join(errs...)
				}
			}
		}
	}
	return errors.Join(errs...)
}

// CheckGrad runs ops.GradCheck through each output of a case, in float64
// on dev, the inputs [3 4] (the second transposed).
func CheckGrad(ctx context.Context, c Case, dev ops.Device) error {
	nIn := c.Chain.NumInputs()
	in := make([]*ops.Tensor, nIn)
	for j := range nIn {
		layout := "contiguous"
		if j == 1 {
			layout = "transposed"
		}
		lo, hi := c.Lo, c.Hi
		if lo == 0 && hi == 0 {
			lo, hi = -2, 2
		}
		t, _, err := Input(ctx, randData(uint64(j+5), 12, lo, hi), []int{3, 4}, ops.Float64, layout, dev)
		if err != nil {
			return err
		}
		if err := t.SetRequiresGrad(true); err != nil {
			return err
		}
		in[j] = t
	}
	for k := range c.Chain.NumOutputs() {
		fn := func(ctx context.Context, x []*ops.Tensor) (*ops.Tensor, error) {
			outs, err := c.Chain.Call(ctx, x, c.Scalars...)
			if err != nil {
				return nil, err
			}
			return outs[k], nil
		}
		if err := ops.GradCheck(ctx, fn, in, ops.GradCheckOptions{}); err != nil {
			return fmt.Errorf("%s on %v, output %d: %w", c.Name, dev, k, err)
		}
	}
	return nil
}

// CheckGradBroadcast runs ops.GradCheck through a chain whose inputs are
// broadcast ([3 1], [4] and 0-d against [2 3 4] transposed): their
// gradients are sums over the broadcast dimensions.
func CheckGradBroadcast(ctx context.Context, dev ops.Device) error {
	c := fuse.MustNew("bcast_grad", []fuse.Expr{fuse.Tanh(fuse.In(0).Mul(fuse.In(1))).Add(fuse.In(2).Mul(fuse.In(3)))}, fuse.Options{})
	shapes := [][]int{{3, 1}, {4}, {}, {2, 3, 4}}
	layouts := []string{"contiguous", "strided", "contiguous", "transposed"}
	in := make([]*ops.Tensor, len(shapes))
	for j, sh := range shapes {
		t, _, err := Input(ctx, randData(uint64(j+11), numel(sh), -1, 1), sh, ops.Float64, layouts[j], dev)
		if err != nil {
			return err
		}
		if err := t.SetRequiresGrad(true); err != nil {
			return err
		}
		in[j] = t
	}
	fn := func(ctx context.Context, x []*ops.Tensor) (*ops.Tensor, error) { return c.Call1(ctx, x) }
	if err := ops.GradCheck(ctx, fn, in, ops.GradCheckOptions{}); err != nil {
		return fmt.Errorf("broadcast inputs on %v: %w", dev, err)
	}
	return nil
}

// CheckBroadcast checks broadcasting (including 0-d and size-1
// dimensions), non-contiguous broadcast inputs and inputs of different
// dtypes in one chain.
func CheckBroadcast(ctx context.Context, dev ops.Device) error {
	c := fuse.MustNew("bcast", []fuse.Expr{fuse.In(0).Mul(fuse.In(1)).Add(fuse.In(2))}, fuse.Options{})
	type tc struct {
		shapes  [][]int
		layouts []string
		out     []int
	}
	for _, tcase := range []tc{
		{[][]int{{3, 1}, {4}, {}}, []string{"contiguous", "contiguous", "contiguous"}, []int{3, 4}},
		{[][]int{{2, 1, 5}, {3, 1}, {5}}, []string{"strided", "offset", "contiguous"}, []int{2, 3, 5}},
		{[][]int{{6, 7}, {6, 7}, {1, 7}}, []string{"transposed", "strided", "contiguous"}, []int{6, 7}},
		{[][]int{{1}, {300, 2}, {300, 1}}, []string{"contiguous", "transposed", "transposed"}, []int{300, 2}},
	} {
		for _, d := range AllDTypes {
			in := make([]*ops.Tensor, 3)
			vals := make([][]float64, 3)
			for j, sh := range tcase.shapes {
				var err error
				if in[j], vals[j], err = Input(ctx, randData(uint64(j), numel(sh), -2, 2), sh, d, tcase.layouts[j], dev); err != nil {
					return err
				}
			}
			y, err := c.Call1(ctx, in)
			if err != nil {
				return fmt.Errorf("broadcast %v on %v (%v): %w", tcase.shapes, dev, d, err)
			}
			if fmt.Sprint(y.Shape()) != fmt.Sprint(tcase.out) {
				return fmt.Errorf("broadcast %v: shape %v, want %v", tcase.shapes, y.Shape(), tcase.out)
			}
			got, err := y.Float64s()
			if err != nil {
				return err
			}
			want := make([]float64, numel(tcase.out))
			for i := range want {
				var v [3]float64
				for j, sh := range tcase.shapes {
					v[j] = vals[j][bIndex(i, tcase.out, sh)]
				}
				want[i] = v[0]*v[1] + v[2]
			}
			if err := compare(got, want, Tolerance(d)); err != nil {
				return fmt.Errorf("broadcast %v %v on %v (%v): %w", tcase.shapes, tcase.layouts, dev, d, err)
			}
		}
	}
	// Inputs of two dtypes, outputs of two dtypes.
	m := fuse.MustNew("mixed", []fuse.Expr{fuse.In(0).Add(fuse.Cast(fuse.In(1), ops.Float32)), fuse.Cast(fuse.In(0), ops.Float16).Mul(fuse.In(1))}, fuse.Options{})
	x, xv, err := Input(ctx, randData(1, 15, -2, 2), []int{3, 5}, ops.Float32, "transposed", dev)
	if err != nil {
		return err
	}
	h, hv, err := Input(ctx, randData(2, 15, -2, 2), []int{3, 5}, ops.Float16, "contiguous", dev)
	if err != nil {
		return err
	}
	outs, err := m.Call(ctx, []*ops.Tensor{x, h})
	if err != nil {
		return fmt.Errorf("mixed dtypes on %v: %w", dev, err)
	}
	if outs[0].DType() != ops.Float32 || outs[1].DType() != ops.Float16 {
		return fmt.Errorf("mixed dtypes: outputs %v and %v, want float32 and float16", outs[0].DType(), outs[1].DType())
	}
	g0, _ := outs[0].Float64s()
	g1, _ := outs[1].Float64s()
	w0, w1 := make([]float64, 15), make([]float64, 15)
	for i := range w0 {
		w0[i] = float64(float32(xv[i] + hv[i]))
		w1[i] = RoundF16(float64(float32(RoundF16(xv[i]) * hv[i])))
	}
	return errors.Join(compare(g0, w0, 0), compare(g1, w1, 0))
}

// bIndex maps element i of the broadcast shape out to the row-major index
// of the input of shape sh.
func bIndex(i int, out, sh []int) int {
	idx, stride := 0, 1
	for d := len(out) - 1; d >= 0; d-- {
		c := i % out[d]
		i /= out[d]
		sd := d - (len(out) - len(sh))
		if sd < 0 {
			continue
		}
		if sh[sd] != 1 {
			idx += c * stride
		}
		stride *= sh[sd]
	}
	return idx
}
