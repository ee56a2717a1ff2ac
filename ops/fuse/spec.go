package fuse

import (
	"fmt"
	"strings"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse/driver"
)

// weak is the "dtype" of a step computed only from scalars: it takes the
// dtype of what it is combined with, and is computed in float64.
const weak ops.DType = 0

// spec is a driver.Spec with what this package keeps of it: the chain,
// each step's dtype and, for the Vector class, the Linear spec.
type spec struct {
	driver.Spec
	chain    *Chain
	stepType []ops.DType // each step's dtype (weak for scalar-only steps)
	linear   *spec
}

// compute64 reports whether step i computes in float64.
func (s *spec) compute64(i int) bool {
	d := s.stepType[i]
	return d == weak || d == ops.Float64
}

// typeSteps gives each step a dtype from the inputs' dtypes, or an error
// naming the step.
func (c *Chain) typeSteps(in []ops.DType) ([]ops.DType, []ops.DType, error) {
	t := make([]ops.DType, len(c.steps))
	unify := func(i int, args []int) (ops.DType, error) {
		d := weak
		for _, a := range args {
			switch {
			case t[a] == weak:
			case d == weak:
				d = t[a]
			case t[a] != d:
				return 0, c.errorf(ops.ErrDType, "%s: operands have dtypes %v and %v; fuse does not promote dtypes: convert one with fuse.Cast(e, ops.%s)",
					c.position(i), d, t[a], goName(d))
			}
		}
		return d, nil
	}
	for i, s := range c.steps {
		var err error
		switch s.kind {
		case kInput:
			t[i] = in[s.index]
		case kConst, kArg:
			t[i] = weak
		case kCast:
			t[i] = s.dtype
		case kWhere:
			t[i], err = unify(i, s.args[1:])
		default:
			t[i], err = unify(i, s.args)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	out := make([]ops.DType, len(c.outputs))
	for k, o := range c.outputs {
		out[k] = t[o]
		if out[k] == weak {
			out[k] = in[0]
		}
	}
	return t, out, nil
}

func goName(d ops.DType) string {
	switch d {
	case ops.Float64:
		return "Float64"
	case ops.Float16:
		return "Float16"
	case ops.BFloat16:
		return "BFloat16"
	}
	return "Float32"
}

// plan is what a call's shapes decide: the broadcast shape and the layout.
type plan struct {
	shape   []int
	n       int
	layout  driver.LayoutClass
	vec     int
	dims    []int
	strides [][]int
	index64 bool
}

// broadcast returns the shape all inputs broadcast to (NumPy's rules), or
// an error naming the first input that does not fit.
func (c *Chain) broadcast(in []*ops.Tensor) ([]int, error) {
	rank := 0
	for _, t := range in {
		rank = max(rank, t.Dim())
	}
	shape := make([]int, rank)
	for i := range shape {
		shape[i] = 1
	}
	for j, t := range in {
		sh := t.Shape()
		for d := range sh {
			o := rank - len(sh) + d
			switch {
			case sh[d] == shape[o]:
			case shape[o] == 1:
				shape[o] = sh[d]
			case sh[d] != 1:
				return nil, &ops.OpError{Op: "fuse." + c.name, Arg: fmt.Sprintf("input %d", j), Kind: ops.ErrShape,
					Detail: fmt.Sprintf("input %d has shape %v, which does not broadcast with %v (the shape of the inputs before it): sizes must match or be 1", j, sh, shape)}
			}
		}
	}
	return shape, nil
}

// vecWidth is the elements per thread of the Vector class: 16 bytes of the
// widest 16-bit operand when all are 16-bit, else 4.
func vecWidth(in, out []ops.DType) int {
	for _, ds := range [][]ops.DType{in, out} {
		for _, d := range ds {
			if d.Size() != 2 {
				return 4
			}
		}
	}
	return 8
}

// planFor decides the layout of a call.
func planFor(shape []int, in []*ops.Tensor, inT, outT []ops.DType) plan {
	p := plan{shape: shape, n: 1}
	for _, s := range shape {
		p.n *= s
	}
	p.vec = vecWidth(inT, outT)
	linear := true
	aligned := true
	for j, t := range in {
		// t broadcasts to shape (checked by broadcast): of its rank and size,
		// it has shape itself (or no elements, when nothing is computed).
		if t.Dim() != len(shape) || t.Numel() != p.n || !t.IsContiguous() {
			linear = false
			break
		}
		if (t.Offset()*inT[j].Size())%(p.vec*inT[j].Size()) != 0 {
			aligned = false
		}
	}
	if linear {
		p.layout = driver.Linear
		if aligned {
			p.layout = driver.Vector
		}
		p.index64 = p.n > 1<<31-1
		return p
	}
	// Strided: each input's strides over the output's dimensions (0 where
	// it is broadcast), size-1 dimensions dropped, mergeable ones merged.
	rank := len(shape)
	full := make([][]int, len(in))
	for j, t := range in {
		full[j] = make([]int, rank)
		sh, st := t.Shape(), t.Strides()
		for d := range sh {
			if sh[d] != 1 {
				full[j][rank-len(sh)+d] = st[d]
			}
		}
	}
	p.layout = driver.Strided
	p.strides = make([][]int, len(in))
	for d := range rank {
		if shape[d] == 1 {
			continue
		}
		if k := len(p.dims) - 1; k >= 0 {
			mergeable := true
			for j := range in {
				if p.strides[j][k] != full[j][d]*shape[d] {
					mergeable = false
					break
				}
			}
			if mergeable {
				p.dims[k] *= shape[d]
				for j := range in {
					p.strides[j][k] = full[j][d]
				}
				continue
			}
		}
		p.dims = append(p.dims, shape[d])
		for j := range in {
			p.strides[j] = append(p.strides[j], full[j][d])
		}
	}
	p.index64 = p.n > 1<<31-1
	for j := range in {
		reach := 0
		for k, s := range p.strides[j] {
			reach += (p.dims[k] - 1) * s
		}
		if reach > 1<<31-1 {
			p.index64 = true
		}
	}
	return p
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// typing is a chain's steps typed for its inputs' dtypes.
type typing struct {
	steps, out []ops.DType
}

// typed returns the typing of the chain for the inputs' dtypes, cached.
func (c *Chain) typed(inT []ops.DType) (*typing, error) {
	var buf [32]byte
	k := buf[:0]
	for _, d := range inT {
		k = append(k, byte(d))
	}
	c.mu.Lock()
	t, ok := c.typings[string(k)]
	c.mu.Unlock()
	if ok {
		return t, nil
	}
	steps, out, err := c.typeSteps(inT)
	if err != nil {
		return nil, err
	}
	t = &typing{steps, out}
	c.mu.Lock()
	c.typings[string(k)] = t
	c.mu.Unlock()
	return t, nil
}

// spec returns the chain specialized for the dtypes and the plan's layout,
// made and cached on first use.
func (c *Chain) spec(inT []ops.DType, p plan) (*spec, error) {
	var buf [48]byte
	k := buf[:0]
	for _, d := range inT {
		k = append(k, byte(d))
	}
	vec := 0
	if p.layout == driver.Vector {
		vec = p.vec
	}
	idx := byte(0)
	if p.index64 {
		idx = 1
	}
	k = append(k, 0xff, byte(p.layout), byte(vec), byte(len(p.dims)), idx)
	c.mu.Lock()
	s, ok := c.specs[string(k)]
	c.mu.Unlock()
	if ok {
		return s, nil
	}
	t, err := c.typed(inT)
	if err != nil {
		return nil, err
	}
	// A copy: the caller's inT (on its stack) must not escape through the spec.
	dts := append([]ops.DType(nil), inT...)
	s = &spec{Spec: driver.Spec{Key: fmt.Sprintf("%s|%v|%v|%d|%d|%v", c.sig, dts, p.layout, vec, len(p.dims), p.index64),
		Layout: p.layout, VecWidth: vec, Rank: len(p.dims), Index64: p.index64,
		InDTypes: dts, OutDTypes: t.out, Options: c.compileOptions()}, chain: c, stepType: t.steps}
	s.Entry = "fuse_" + sanitize(c.name) + "_" + shortHash(s.Key)
	s.Source = generate(s)
	s.Eval = s.eval
	if p.layout == driver.Vector {
		if s.linear, err = c.spec(inT, plan{n: p.n, layout: driver.Linear, index64: p.index64}); err != nil {
			return nil, err
		}
		s.Linear = &s.linear.Spec
	}
	c.mu.Lock()
	if old, ok := c.specs[string(k)]; ok {
		s = old
	} else {
		c.specs[string(k)] = s
	}
	c.mu.Unlock()
	return s, nil
}

// sanitize keeps a name's C identifier characters.
func sanitize(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
		if b.Len() >= 32 {
			break
		}
	}
	return b.String()
}
