package fusetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse"
	"github.com/rules-cuda-go/rules_cuda_go/ops/internal/testkit"
	"github.com/rules-cuda-go/rules_cuda_go/ops/internal/testtensor"
)

// Input returns a tensor of dtype on dev whose logical values are data
// (rounded to dtype), laid out as layout (testtensor.View, what optest.View
// is; optest itself would bring ops/cuda into ops/fuse's tests), and those
// rounded values.
func Input(ctx context.Context, data []float64, shape []int, dtype ops.DType, layout testkit.Layout, dev ops.Device) (*ops.Tensor, []float64, error) {
	t, err := testtensor.View(ctx, dtype, data, shape, layout, dev)
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

// compare checks got against want within tol (rtol = atol = tol).
func compare(got, want []float64, tol float64) error { return testkit.Compare(got, want, tol, tol) }

// CheckValues runs a case on dev in every dtype, shape and layout and
// compares with its reference.
func CheckValues(ctx context.Context, c Case, dev ops.Device) error {
	nIn := c.Chain.NumInputs()
	var errs []error
	for _, d := range AllDTypes {
		for si, shape := range Shapes {
			for _, layout := range Layouts {
				if layout == testkit.Transposed && len(shape) < 2 {
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
		layout := testkit.Contiguous
		if j == 1 {
			layout = testkit.Transposed
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
	layouts := []testkit.Layout{testkit.Contiguous, testkit.Strided, testkit.Contiguous, testkit.Transposed}
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
		layouts []testkit.Layout
		out     []int
	}
	for _, tcase := range []tc{
		{[][]int{{3, 1}, {4}, {}}, []testkit.Layout{testkit.Contiguous, testkit.Contiguous, testkit.Contiguous}, []int{3, 4}},
		{[][]int{{2, 1, 5}, {3, 1}, {5}}, []testkit.Layout{testkit.Strided, testkit.Offset, testkit.Contiguous}, []int{2, 3, 5}},
		{[][]int{{6, 7}, {6, 7}, {1, 7}}, []testkit.Layout{testkit.Transposed, testkit.Strided, testkit.Contiguous}, []int{6, 7}},
		{[][]int{{1}, {300, 2}, {300, 1}}, []testkit.Layout{testkit.Contiguous, testkit.Transposed, testkit.Transposed}, []int{300, 2}},
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
	x, xv, err := Input(ctx, randData(1, 15, -2, 2), []int{3, 5}, ops.Float32, testkit.Transposed, dev)
	if err != nil {
		return err
	}
	h, hv, err := Input(ctx, randData(2, 15, -2, 2), []int{3, 5}, ops.Float16, testkit.Contiguous, dev)
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
