package ops

import (
	"context"
	"fmt"
	"math"
	"slices"
)

// GradCheckOptions configures GradCheck. Zero fields take the defaults of
// torch.autograd.gradcheck.
type GradCheckOptions struct {
	Eps  float64 // central-difference step; default 1e-6
	Atol float64 // absolute tolerance; default 1e-5
	Rtol float64 // relative tolerance (of the numeric value); default 1e-3
}

// GradCheckError reports the first Jacobian entry where the analytic
// (autograd) and numeric (finite-difference) derivatives differ by more than
// Atol + Rtol*|Numeric|.
type GradCheckError struct {
	Input    int     // index into the inputs slice
	Element  int     // row-major element index within that input
	Output   int     // row-major element index within fn's output
	Analytic float64 // d output[Output] / d input[Element] from Backward
	Numeric  float64 // the same from central differences
	Atol     float64
	Rtol     float64
}

// Error implements error.
func (e *GradCheckError) Error() string {
	return fmt.Sprintf("ops.GradCheck: Jacobian mismatch for inputs[%d] element %d, output element %d: analytic %g, numeric %g (atol %g, rtol %g)",
		e.Input, e.Element, e.Output, e.Analytic, e.Numeric, e.Atol, e.Rtol)
}

// GradCheck compares the gradients that autograd computes for fn with
// central finite differences, like torch.autograd.gradcheck. inputs must be
// float64 (or int32 indices, passed as they are); those with RequiresGrad
// are checked. fn is called with ctx and
// detached copies of the inputs (leaves that require grad where the
// originals do, the originals' strides kept) and must return a float64
// tensor of any shape; the full Jacobian is compared, so keep the tensors
// small. Backward runs with ctx too. The inputs' gradients are not
// touched. It returns nil, a *GradCheckError for the first mismatch, or
// another error if fn or autograd fails.
func GradCheck(ctx context.Context, fn func(ctx context.Context, inputs []*Tensor) (*Tensor, error), inputs []*Tensor, opts GradCheckOptions) error {
	if err := checkCtx(gradCheckOp, ctx); err != nil {
		return err
	}
	if fn == nil {
		return opErr(gradCheckOp, "fn", ErrArg, "fn is nil")
	}
	checked, err := gradCheckInputs(inputs)
	if err != nil {
		return err
	}
	g := &gradChecker{ctx: ctx, fn: fn, inputs: inputs, checked: checked, opts: opts.withDefaults()}
	analytic, err := g.analytic()
	if err != nil {
		return err
	}
	return g.compareNumeric(analytic)
}

const gradCheckOp = "GradCheck"

// withDefaults fills zero fields with torch.autograd.gradcheck's defaults.
func (o GradCheckOptions) withDefaults() GradCheckOptions {
	if o.Eps == 0 {
		o.Eps = 1e-6
	}
	if o.Atol == 0 {
		o.Atol = 1e-5
	}
	if o.Rtol == 0 {
		o.Rtol = 1e-3
	}
	return o
}

// gradCheckInputs validates the inputs and returns the indices of those that require grad.
func gradCheckInputs(inputs []*Tensor) ([]int, error) {
	var checked []int
	for i, in := range inputs {
		name := fmt.Sprintf("inputs[%d]", i)
		if err := in.check(gradCheckOp, name); err != nil {
			return nil, err
		}
		if in.dtype != Float64 && (in.dtype.isFloat() || in.RequiresGrad()) { // int32 indices pass as they are
			return nil, opErr(gradCheckOp, name, ErrDType, "%s has dtype %v, expected float64 (finite differences need double precision)", name, in.dtype)
		}
		if in.RequiresGrad() {
			checked = append(checked, i)
		}
	}
	if len(checked) == 0 {
		return nil, opErr(gradCheckOp, "inputs", ErrArg, "no input requires grad")
	}
	return checked, nil
}

// gradChecker holds one GradCheck: fn, its inputs, which of them are checked, the tolerances,
// and the output's shape (set by analytic).
type gradChecker struct {
	ctx      context.Context
	fn       func(ctx context.Context, inputs []*Tensor) (*Tensor, error)
	inputs   []*Tensor
	checked  []int
	opts     GradCheckOptions
	outShape []int
	nOut     int
}

// call runs fn and checks that it returned a live float64 tensor.
func (g *gradChecker) call(args []*Tensor) (*Tensor, error) {
	out, err := g.fn(g.ctx, args)
	if err != nil {
		return nil, fmt.Errorf("ops.GradCheck: fn failed: %w", err)
	}
	if err := out.check(gradCheckOp, "fn's result"); err != nil {
		return nil, err
	}
	if out.dtype != Float64 {
		return nil, opErr(gradCheckOp, "fn's result", ErrDType, "fn's result has dtype %v, expected float64", out.dtype)
	}
	return out, nil
}

// analytic returns the Jacobian from autograd, [checked input][output element] -> d/d input
// elements (nil rows where the output does not depend on the input): one backward pass per
// output element.
func (g *gradChecker) analytic() ([][][]float64, error) {
	leaves := make([]*Tensor, len(g.inputs))
	for i, in := range g.inputs {
		leaves[i] = in.Detach()
		if in.RequiresGrad() {
			leaves[i].requiresGrad.Store(true)
		}
	}
	out, err := g.call(leaves)
	if err != nil {
		return nil, err
	}
	g.outShape, g.nOut = slices.Clone(out.shape), out.Numel()
	analytic := make([][][]float64, len(g.checked))
	for c := range analytic {
		analytic[c] = make([][]float64, g.nOut)
	}
	if !out.RequiresGrad() {
		return analytic, nil
	}
	for k := range g.nOut {
		oneHot := make([]float64, g.nOut)
		oneHot[k] = 1
		grad, err := fromFloat64(gradCheckOp, oneHot, g.outShape)
		if err == nil {
			grad, err = grad.To(g.ctx, out.device)
		}
		if err != nil {
			return nil, err
		}
		for _, i := range g.checked {
			leaves[i].ZeroGrad()
		}
		if err := out.BackwardWithGrad(g.ctx, grad); err != nil {
			return nil, err
		}
		for c, i := range g.checked {
			if gr := leaves[i].Grad(); gr != nil {
				if analytic[c][k], err = gr.Float64s(); err != nil {
					return nil, err
				}
			}
		}
	}
	return analytic, nil
}

// compareNumeric computes the Jacobian by central differences, one input element at a time,
// and returns a *GradCheckError for the first entry that differs from analytic.
func (g *gradChecker) compareNumeric(analytic [][][]float64) error {
	eps, atol, rtol := g.opts.Eps, g.opts.Atol, g.opts.Rtol
	for c, i := range g.checked {
		base, err := g.inputs[i].Float64s()
		if err != nil {
			return err
		}
		for e := range base {
			plus, err := g.perturbed(i, base, e, base[e]+eps)
			if err != nil {
				return err
			}
			minus, err := g.perturbed(i, base, e, base[e]-eps)
			if err != nil {
				return err
			}
			for k := range g.nOut {
				num := (plus[k] - minus[k]) / (2 * eps)
				var ana float64
				if analytic[c][k] != nil {
					ana = analytic[c][k][e]
				}
				if !(math.Abs(ana-num) <= atol+rtol*math.Abs(num)) {
					return &GradCheckError{Input: i, Element: e, Output: k, Analytic: ana, Numeric: num, Atol: atol, Rtol: rtol}
				}
			}
		}
	}
	return nil
}

// perturbed returns fn's output (row-major) with element e of input i (whose values are base)
// set to v and the other inputs as they are.
func (g *gradChecker) perturbed(i int, base []float64, e int, v float64) ([]float64, error) {
	in := g.inputs[i]
	vals := slices.Clone(base)
	vals[e] = v
	t, err := fromFloat64(gradCheckOp, vals, in.shape)
	if err == nil {
		t, err = t.To(g.ctx, in.device)
	}
	if err != nil {
		return nil, err
	}
	args := make([]*Tensor, len(g.inputs))
	for j, other := range g.inputs {
		args[j] = other.Detach()
	}
	args[i] = t
	o, err := g.call(args)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(o.shape, g.outShape) {
		return nil, opErr(gradCheckOp, "fn", ErrShape, "fn returned shape %v for perturbed inputs, %v before", o.shape, g.outShape)
	}
	return o.Float64s()
}
