package optest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// Values are a tensor's logical elements in row-major order, as float64.
type Values struct {
	Shape []int
	Data  []float64
}

// Spec is an op under test.
type Spec struct {
	// Name names the op in failures, e.g. "LeakyRelu".
	Name string
	// Call runs the op with ctx on its tensor inputs, with the op's other
	// arguments fixed by the test, e.g. LeakyRelu(ctx, in[0], 0.125).
	Call func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error)
	// Ref is the reference: the output's values computed in float64 from
	// the inputs' (already rounded to the dtype under test).
	Ref func(in []Values) Values
	// Inputs is the number of tensor inputs; with Shapes nil, the cases
	// are ElementwiseShapes(Inputs).
	Inputs int
	// Shapes are the cases checked against Ref: each lists the shapes of
	// the inputs (Shapes[i][j] is input j's in case i).
	Shapes [][][]int
	// GradShapes are the inputs' shapes for GradCheck and for the check on
	// a stream; nil means [3 4] for each input.
	GradShapes [][]int
	// NoGrad skips GradCheck and the backward on a stream: for ops that
	// are not differentiable (a backward op without a backward).
	NoGrad bool
	// CPUOnly skips the GPU checks, for an op without a CUDA kernel in the
	// test binary.
	CPUOnly bool
	// DTypes are the dtypes the op supports (nil: all four); the others
	// must be an ops.ErrDType error.
	DTypes []ops.DType
	// Tol gives the tolerance of a dtype (nil: Tolerance).
	Tol func(ops.DType) (rtol, atol float64)
	// Lo and Hi bound the inputs' values, drawn uniformly from [Lo, Hi)
	// (both 0: [-1, 1)).
	Lo, Hi float64
	// Index marks the inputs that are indices (token ids, class targets):
	// input j of Index[j] = n is an ops.Int32 tensor (whatever the dtype
	// under test) of values drawn uniformly from [0, n), in every layout
	// like the others (unused storage holds math.MinInt32); Ref gets them
	// as float64 values. They are not differentiated (GradCheck passes them
	// as they are), keep their values in the capture check and are never
	// the input of the mixed-dtype check.
	Index map[int]int
}

// AllDTypes are the dtypes of package ops.
var AllDTypes = []ops.DType{ops.Float32, ops.Float64, ops.Float16, ops.BFloat16}

// ElementwiseShapes returns the cases of an elementwise op with n inputs,
// all of one shape: 0-d, empty, one element, small 2-D, 3-D, and a 2-D
// shape of several thousand elements (more than one GPU block).
func ElementwiseShapes(n int) [][][]int {
	var cases [][][]int
	for _, s := range [][]int{{}, {0, 3}, {1, 1}, {7, 5}, {3, 4, 5}, {65, 67}} {
		c := make([][]int, n)
		for i := range c {
			c[i] = slices.Clone(s)
		}
		cases = append(cases, c)
	}
	return cases
}

// call runs s.Call, turning a panic into an error, so that a kernel that
// panics fails the check that called it rather than the whole test binary.
func (s Spec) call(ctx context.Context, in []*ops.Tensor) (out *ops.Tensor, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("panic: %v", r)
		}
	}()
	return s.Call(ctx, in)
}

// withDefaults returns s with its zero fields defaulted, or an error
// naming a field that is wrong.
func (s Spec) withDefaults() (Spec, error) {
	if s.Name == "" {
		s.Name = "op"
	}
	if s.Call == nil || s.Ref == nil {
		return s, fmt.Errorf("optest: %s: Spec.Call and Spec.Ref are required", s.Name)
	}
	if s.Shapes == nil {
		if s.Inputs <= 0 {
			return s, fmt.Errorf("optest: %s: set Spec.Inputs (the number of tensor inputs) or Spec.Shapes", s.Name)
		}
		s.Shapes = ElementwiseShapes(s.Inputs)
	}
	if len(s.Shapes) == 0 {
		return s, fmt.Errorf("optest: %s: Spec.Shapes has no case", s.Name)
	}
	if s.Inputs == 0 {
		s.Inputs = len(s.Shapes[0])
	}
	for i, c := range s.Shapes {
		if len(c) != s.Inputs {
			return s, fmt.Errorf("optest: %s: Spec.Shapes[%d] has %d shapes, want %d (Spec.Inputs)", s.Name, i, len(c), s.Inputs)
		}
	}
	if s.GradShapes == nil {
		for range s.Inputs {
			s.GradShapes = append(s.GradShapes, []int{3, 4})
		}
	}
	if len(s.GradShapes) != s.Inputs {
		return s, fmt.Errorf("optest: %s: Spec.GradShapes has %d shapes, want %d (Spec.Inputs)", s.Name, len(s.GradShapes), s.Inputs)
	}
	if s.DTypes == nil {
		s.DTypes = AllDTypes
	}
	if s.Tol == nil {
		s.Tol = Tolerance
	}
	if s.Lo == 0 && s.Hi == 0 {
		s.Lo, s.Hi = -1, 1
	}
	if !(s.Lo < s.Hi) {
		return s, fmt.Errorf("optest: %s: Spec.Lo = %v, Spec.Hi = %v: want Lo < Hi", s.Name, s.Lo, s.Hi)
	}
	return s, nil
}

// dtypeOf returns the dtype of input j in a check of dtype: ops.Int32 for
// an index input, else dtype.
func (s Spec) dtypeOf(j int, dtype ops.DType) ops.DType {
	if _, ok := s.Index[j]; ok {
		return ops.Int32
	}
	return dtype
}

// inputData returns the values of input j (seeded by seed and the dtype):
// indices for an index input, else values rounded to dtype.
func (s Spec) inputData(ctx context.Context, seed uint64, j int, shape []int, dtype ops.DType) ([]float64, error) {
	n, ok := s.Index[j]
	if !ok {
		return s.data(ctx, seed, shape, dtype)
	}
	r := rand.New(rand.NewPCG(seed, uint64(dtype)))
	v := make([]float64, numel(shape))
	for i := range v {
		v[i] = float64(r.IntN(n))
	}
	return v, nil
}

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// data returns the values of a tensor of the given shape (seeded by seed
// and the dtype), rounded to dtype.
func (s Spec) data(ctx context.Context, seed uint64, shape []int, dtype ops.DType) ([]float64, error) {
	n := numel(shape)
	r := rand.New(rand.NewPCG(seed, uint64(dtype)))
	v := make([]float64, n)
	for i := range v {
		v[i] = s.Lo + (s.Hi-s.Lo)*r.Float64()
	}
	if dtype == ops.Float64 {
		return v, nil
	}
	t, err := ops.FromFloat64(v, shape...)
	if err == nil {
		t, err = t.AsType(ctx, dtype)
	}
	if err != nil {
		return nil, err
	}
	return t.Float64s()
}

// layoutsFor returns the layouts of the inputs in the k-th of the
// combinations that Run checks: input j in the (k+j)-th layout its shape
// has, so that each input takes each of its layouts and the inputs mix.
func layoutsFor(shapes [][]int, k int) []Layout {
	out := contiguous(len(shapes))
	for j, sh := range shapes {
		ls := Layouts(sh)
		out[j] = ls[(k+j)%len(ls)]
	}
	return out
}

// contiguous returns n Contiguous layouts.
func contiguous(n int) []Layout {
	l := make([]Layout, n)
	for i := range l {
		l[i] = Contiguous
	}
	return l
}

// combinations is the number of layout combinations Run checks for shapes.
func combinations(shapes [][]int) int {
	n := 1
	for _, sh := range shapes {
		n = max(n, len(Layouts(sh)))
	}
	return n
}

// inputs makes the inputs of a case on dev, in the given layouts, from the
// values data (index inputs as ops.Int32).
func (s Spec) inputs(ctx context.Context, dtype ops.DType, data [][]float64, shapes [][]int, layouts []Layout, dev ops.Device) ([]*ops.Tensor, error) {
	in := make([]*ops.Tensor, len(shapes))
	for j := range shapes {
		dt := s.dtypeOf(j, dtype)
		t, err := View(ctx, dt, data[j], shapes[j], layouts[j], dev)
		if err != nil {
			return nil, fmt.Errorf("input %d (%v, %v, %s): %w", j, dt, shapes[j], layouts[j], err)
		}
		in[j] = t
	}
	return in, nil
}

// caseData returns the values of the inputs of case i in dtype.
func (s Spec) caseData(ctx context.Context, i int, shapes [][]int, dtype ops.DType) ([][]float64, error) {
	data := make([][]float64, len(shapes))
	for j, sh := range shapes {
		d, err := s.inputData(ctx, uint64(1000*i+j+1), j, sh, dtype)
		if err != nil {
			return nil, err
		}
		data[j] = d
	}
	return data, nil
}

// checkValues runs the op on dev on every dtype, case and layout
// combination and compares it with Ref.
func (s Spec) checkValues(ctx context.Context, dev ops.Device, report func(format string, a ...any)) {
	for _, dtype := range s.DTypes {
		rtol, atol := s.Tol(dtype)
		for i, shapes := range s.Shapes {
			data, err := s.caseData(ctx, i, shapes, dtype)
			if err != nil {
				report("%s %v %v: making inputs: %v", s.Name, dtype, shapes, err)
				return
			}
			vals := make([]Values, len(shapes))
			for j := range shapes {
				vals[j] = Values{Shape: slices.Clone(shapes[j]), Data: data[j]}
			}
			want := s.Ref(vals)
			for k := range combinations(shapes) {
				layouts := layoutsFor(shapes, k)
				what := fmt.Sprintf("%s on %v, %v inputs of shapes %v in layouts %v", s.Name, dev, dtype, shapes, layouts)
				in, err := s.inputs(ctx, dtype, data, shapes, layouts, dev)
				if err != nil {
					report("%s: %v", what, err)
					return
				}
				out, err := s.call(ctx, in)
				if err != nil {
					report("%s: %v", what, err)
					continue
				}
				if out.Device() != dev {
					report("%s: the output is on %v", what, out.Device())
				}
				if !slices.Equal(out.Shape(), want.Shape) {
					report("%s: the output has shape %v, Ref's %v", what, out.Shape(), want.Shape)
					continue
				}
				got, err := out.Float64s()
				if err != nil {
					report("%s: reading the output: %v", what, err)
					continue
				}
				if err := Compare(got, want.Data, rtol, atol); err != nil {
					report("%s: against Ref: %v", what, err)
				}
				out.Free()
			}
		}
	}
}

// checkUnsupported checks that the dtypes not in s.DTypes are ErrDType
// errors on dev.
func (s Spec) checkUnsupported(ctx context.Context, dev ops.Device, report func(format string, a ...any)) {
	shapes := s.GradShapes
	for _, dtype := range AllDTypes {
		if slices.Contains(s.DTypes, dtype) {
			continue
		}
		data, err := s.caseData(ctx, 0, shapes, dtype)
		if err != nil {
			report("%s %v: making inputs: %v", s.Name, dtype, err)
			return
		}
		in, err := s.inputs(ctx, dtype, data, shapes, contiguous(len(shapes)), dev)
		if err != nil {
			report("%s: %v", s.Name, err)
			return
		}
		if _, err := s.call(ctx, in); !errors.Is(err, ops.ErrDType) {
			report("%s on %v inputs on %v, a dtype Spec.DTypes leaves out: error %v, want one wrapping ops.ErrDType", s.Name, dtype, dev, err)
		}
	}
}

// gradDType is the dtype of the inputs of GradCheck and, where the op
// supports it, of the check on a stream.
const gradDType = ops.Float64

// streamDType is the dtype of the check on a stream: float64, or the op's
// first dtype for an op without float64.
func (s Spec) streamDType() ops.DType {
	if slices.Contains(s.DTypes, gradDType) {
		return gradDType
	}
	return s.DTypes[0]
}

// leaves returns the inputs of GradShapes in dtype on dev, in the given
// layouts, as leaves that require grad.
func (s Spec) leaves(ctx context.Context, dev ops.Device, layouts []Layout, dtype ops.DType) ([]*ops.Tensor, error) {
	data, err := s.caseData(ctx, 99, s.GradShapes, dtype)
	if err != nil {
		return nil, err
	}
	in, err := s.inputs(ctx, dtype, data, s.GradShapes, layouts, dev)
	if err != nil {
		return nil, err
	}
	for j, t := range in {
		in[j] = t.Detach()
		if s.dtypeOf(j, dtype) != dtype {
			continue // an index input
		}
		if err := in[j].SetRequiresGrad(true); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// checkGrad runs ops.GradCheck of the op on dev for every layout
// combination of GradShapes.
func (s Spec) checkGrad(ctx context.Context, dev ops.Device, report func(format string, a ...any)) {
	for k := range combinations(s.GradShapes) {
		layouts := layoutsFor(s.GradShapes, k)
		in, err := s.leaves(ctx, dev, layouts, gradDType)
		if err != nil {
			report("%s: making the inputs of GradCheck on %v: %v", s.Name, dev, err)
			return
		}
		if err := ops.GradCheck(ctx, s.call, in, ops.GradCheckOptions{}); err != nil {
			report("%s: GradCheck on %v, inputs of shapes %v in layouts %v: %v", s.Name, dev, s.GradShapes, layouts, err)
		}
	}
}

// checkErrors checks the errors every op returns for bad tensor inputs on
// dev: nil (ErrNil), freed (ErrFreed) and, with two inputs or more, mixed
// dtypes (ErrDType) and, given other, mixed devices (ErrDevice).
func (s Spec) checkErrors(ctx context.Context, dev ops.Device, other *ops.Device, report func(format string, a ...any)) {
	dtype := s.DTypes[0]
	make1 := func(dtype ops.DType, dev ops.Device) []*ops.Tensor {
		data, err := s.caseData(ctx, 7, s.GradShapes, dtype)
		if err != nil {
			report("%s: making inputs: %v", s.Name, err)
			return nil
		}
		in, err := s.inputs(ctx, dtype, data, s.GradShapes, contiguous(len(s.GradShapes)), dev)
		if err != nil {
			report("%s: %v", s.Name, err)
			return nil
		}
		return in
	}
	expect := func(what string, in []*ops.Tensor, want error) {
		if _, err := s.call(ctx, in); !errors.Is(err, want) {
			report("%s with %s: error %v, want one wrapping %v", s.Name, what, err, want)
		}
	}
	for j := range s.Inputs {
		in := make1(dtype, dev)
		if in == nil {
			return
		}
		in[j] = nil
		expect(fmt.Sprintf("input %d nil", j), in, ops.ErrNil)
		in = make1(dtype, dev)
		if err := in[j].Free(); err != nil {
			report("%s: freeing input %d: %v", s.Name, j, err)
		}
		expect(fmt.Sprintf("input %d freed", j), in, ops.ErrFreed)
	}
	if s.Inputs < 2 {
		return
	}
	if other != nil {
		in, elsewhere := make1(dtype, dev), make1(dtype, *other)
		if in == nil || elsewhere == nil {
			return
		}
		in[1] = elsewhere[1]
		expect(fmt.Sprintf("input 0 on %v and input 1 on %v", dev, *other), in, ops.ErrDevice)
	}
	// Mixed dtypes: the last value input (not an index) in another dtype
	// than the first one's.
	first, last := -1, -1
	for j := range s.Inputs {
		if _, ok := s.Index[j]; !ok {
			if first < 0 {
				first = j
			}
			last = j
		}
	}
	if first == last {
		return
	}
	odd := ops.Float64
	if dtype == ops.Float64 {
		odd = ops.Float32
	}
	in, mixed := make1(dtype, dev), make1(odd, dev)
	if in == nil || mixed == nil {
		return
	}
	in[last] = mixed[last]
	expect(fmt.Sprintf("input %d in %v and input %d in %v", first, dtype, last, odd), in, ops.ErrDType)
}

// run computes the op on dev with ctx on leaves made with made (the inputs'
// context) from the values of GradShapes in dtype in the given layouts, and,
// unless s.NoGrad, the gradients of the inputs for the L2 norm of the
// output, with Backward(ctx).
//
// It also reports whether out is one of the inputs as it is (as AsType to
// an input's own dtype returns it): such an output keeps its own stream.
func (s Spec) run(ctx, made context.Context, dev ops.Device, layouts []Layout, dtype ops.DType) (out *ops.Tensor, isInput bool, values []float64, grads [][]float64, err error) {
	in, err := s.leaves(made, dev, layouts, dtype)
	if err != nil {
		return nil, false, nil, nil, err
	}
	if out, err = s.call(ctx, in); err != nil {
		return nil, false, nil, nil, err
	}
	isInput = slices.Contains(in, out)
	if !s.NoGrad {
		n, err := ops.Norm(ctx, out)
		if err == nil {
			err = n.Backward(ctx)
		}
		if err != nil {
			return nil, false, nil, nil, fmt.Errorf("the backward of the L2 norm of the output: %w", err)
		}
		for _, t := range in {
			var g []float64
			if t.Grad() != nil {
				if g, err = t.Grad().Float64s(); err != nil {
					return nil, false, nil, nil, err
				}
			}
			grads = append(grads, g)
		}
	}
	if values, err = out.Float64s(); err != nil {
		return nil, false, nil, nil, err
	}
	return out, isInput, values, grads, nil
}
