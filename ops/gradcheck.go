package ops

import (
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
// float64; those with RequiresGrad are checked. fn is called with detached
// copies of the inputs (leaves that require grad where the originals do, the
// originals' strides kept) and must return a float64 tensor of any shape;
// the full Jacobian is compared, so keep the tensors small. The inputs'
// gradients are not touched. It returns nil, a *GradCheckError for the
// first mismatch, or another error if fn or autograd fails.
func GradCheck(fn func(inputs []*Tensor) (*Tensor, error), inputs []*Tensor, opts GradCheckOptions) error {
	const op = "GradCheck"
	eps, atol, rtol := opts.Eps, opts.Atol, opts.Rtol
	if eps == 0 {
		eps = 1e-6
	}
	if atol == 0 {
		atol = 1e-5
	}
	if rtol == 0 {
		rtol = 1e-3
	}
	if fn == nil {
		return opErr(op, "fn", ErrArg, "fn is nil")
	}
	var checked []int
	for i, in := range inputs {
		name := fmt.Sprintf("inputs[%d]", i)
		if err := in.check(op, name); err != nil {
			return err
		}
		if in.dtype != Float64 {
			return opErr(op, name, ErrDType, "%s has dtype %v, expected float64 (finite differences need double precision)", name, in.dtype)
		}
		if in.RequiresGrad() {
			checked = append(checked, i)
		}
	}
	if len(checked) == 0 {
		return opErr(op, "inputs", ErrArg, "no input requires grad")
	}
	call := func(args []*Tensor) (*Tensor, error) {
		out, err := fn(args)
		if err != nil {
			return nil, fmt.Errorf("ops.GradCheck: fn failed: %w", err)
		}
		if err := out.check(op, "fn's result"); err != nil {
			return nil, err
		}
		if out.dtype != Float64 {
			return nil, opErr(op, "fn's result", ErrDType, "fn's result has dtype %v, expected float64", out.dtype)
		}
		return out, nil
	}

	// Analytic Jacobian: one backward pass per output element.
	leaves := make([]*Tensor, len(inputs))
	for i, in := range inputs {
		leaves[i] = in.Detach()
		if in.RequiresGrad() {
			leaves[i].requiresGrad.Store(true)
		}
	}
	out, err := call(leaves)
	if err != nil {
		return err
	}
	outShape, nOut := slices.Clone(out.shape), out.Numel()
	analytic := make([][][]float64, len(checked)) // [checked][output] -> d/d input elements
	for c := range analytic {
		analytic[c] = make([][]float64, nOut)
	}
	if out.RequiresGrad() {
		for k := range nOut {
			oneHot := make([]float64, nOut)
			oneHot[k] = 1
			g, err := fromFloat64(op, oneHot, outShape)
			if err == nil {
				g, err = g.To(out.device)
			}
			if err != nil {
				return err
			}
			for _, i := range checked {
				leaves[i].ZeroGrad()
			}
			if err := out.BackwardWithGrad(g); err != nil {
				return err
			}
			for c, i := range checked {
				if gr := leaves[i].Grad(); gr != nil {
					if analytic[c][k], err = gr.Float64s(); err != nil {
						return err
					}
				}
			}
		}
	}

	// Numeric Jacobian, one input element at a time.
	for c, i := range checked {
		in := inputs[i]
		base, err := in.Float64s()
		if err != nil {
			return err
		}
		args := make([]*Tensor, len(inputs))
		for j, t := range inputs {
			args[j] = t.Detach()
		}
		eval := func(e int, v float64) ([]float64, error) {
			vals := slices.Clone(base)
			vals[e] = v
			t, err := fromFloat64(op, vals, in.shape)
			if err == nil {
				t, err = t.To(in.device)
			}
			if err != nil {
				return nil, err
			}
			args[i] = t
			o, err := call(args)
			if err != nil {
				return nil, err
			}
			if !slices.Equal(o.shape, outShape) {
				return nil, opErr(op, "fn", ErrShape, "fn returned shape %v for perturbed inputs, %v before", o.shape, outShape)
			}
			return o.Float64s()
		}
		for e := range base {
			plus, err := eval(e, base[e]+eps)
			if err != nil {
				return err
			}
			minus, err := eval(e, base[e]-eps)
			if err != nil {
				return err
			}
			for k := range nOut {
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
