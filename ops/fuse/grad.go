package fuse

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse/driver"
)

// Autograd: the dispatcher records a call as one node over all its outputs (ops.MultiOp.Call).
// Its backward is a chain derived from the forward one by reverse-mode
// differentiation of its steps, seeded with the gradients of the outputs
// that received one, and compiled like any chain: one kernel that reads
// the inputs and those gradients, recomputes what the derivatives need,
// and writes every input's gradient.

// exprs rebuilds each step as an Expr.
func (c *Chain) exprs() []Expr {
	e := make([]Expr, len(c.steps))
	for i, st := range c.steps {
		a := make([]Expr, len(st.args))
		for k, x := range st.args {
			a[k] = e[x]
		}
		switch st.kind {
		case kInput:
			e[i] = In(st.index)
		case kConst:
			e[i] = Const(c.consts[st.index])
		case kArg:
			e[i] = Arg(st.index)
		case kUnary:
			e[i] = unary(st.op, a[0])
		case kBinary:
			e[i] = binary(st.op, a[0], a[1])
		case kWhere:
			e[i] = Where(a[0], a[1], a[2])
		case kCast:
			e[i] = Cast(a[0], st.dtype)
		case kCall:
			e[i] = c.funcs[st.index].Call(a...)
		}
	}
	return e
}

// backward returns the chain computing the gradients of the inputs from
// the gradients of outputs with[0], with[1], ... (ascending; inputs c.nIn,
// c.nIn+1, ... of the returned chain, after the forward inputs), for a
// spec's dtypes, and which input each of its outputs is the gradient of;
// nil when those outputs depend on no input.
func (c *Chain) backward(s *spec, with []int) (*Chain, []int, error) {
	key := fmt.Sprintf("%v|%v", s.InDTypes, with)
	c.mu.Lock()
	bc, ok := c.grads[key]
	c.mu.Unlock()
	if ok {
		return bc, bc.gradOf, nil
	}
	e := c.exprs()
	// needs[i]: step i depends on an input.
	needs := make([]bool, len(c.steps))
	for i, st := range c.steps {
		needs[i] = st.kind == kInput
		for _, a := range st.args {
			needs[i] = needs[i] || needs[a]
		}
	}
	adj := make([]*Expr, len(c.steps))
	add := func(i int, g Expr) {
		if !needs[i] {
			return
		}
		if adj[i] == nil {
			adj[i] = &g
			return
		}
		sum := Add(*adj[i], g)
		adj[i] = &sum
	}
	for m, k := range with {
		add(c.outputs[k], In(c.nIn+m))
	}
	zero := Const(0)
	for i := len(c.steps) - 1; i >= 0; i-- {
		if adj[i] == nil {
			continue
		}
		A, st := *adj[i], c.steps[i]
		var a, b Expr
		if len(st.args) > 0 {
			a = e[st.args[0]]
		}
		if len(st.args) > 1 {
			b = e[st.args[1]]
		}
		out := e[i]
		switch st.kind {
		case kUnary:
			var d Expr
			switch st.op {
			case opNeg:
				d = Neg(A)
			case opAbs:
				d = A.Mul(Sub(Gt(a, zero), Lt(a, zero)))
			case opExp:
				d = A.Mul(out)
			case opLog:
				d = A.Div(a)
			case opSqrt:
				d = A.Mul(Const(0.5)).Div(out)
			case opTanh:
				d = A.Mul(Const(1).Sub(out.Mul(out)))
			case opSigmoid:
				d = A.Mul(out).Mul(Const(1).Sub(out))
			case opErf:
				d = A.Mul(Const(2 / math.Sqrt(math.Pi))).Mul(Exp(Neg(a.Mul(a))))
			case opSin:
				d = A.Mul(Cos(a))
			case opCos:
				d = Neg(A.Mul(Sin(a)))
			}
			add(st.args[0], d)
		case kBinary:
			switch st.op {
			case opAdd:
				add(st.args[0], A)
				add(st.args[1], A)
			case opSub:
				add(st.args[0], A)
				add(st.args[1], Neg(A))
			case opMul:
				add(st.args[0], A.Mul(b))
				add(st.args[1], A.Mul(a))
			case opDiv:
				add(st.args[0], A.Div(b))
				add(st.args[1], Neg(A.Mul(out).Div(b)))
			case opPow:
				add(st.args[0], A.Mul(b).Mul(Pow(a, b.Sub(Const(1)))))
				add(st.args[1], A.Mul(out).Mul(Log(a)))
			case opMin:
				add(st.args[0], A.Mul(Le(a, b)))
				add(st.args[1], A.Mul(Gt(a, b)))
			case opMax:
				add(st.args[0], A.Mul(Ge(a, b)))
				add(st.args[1], A.Mul(Lt(a, b)))
			default: // comparisons: zero almost everywhere
			}
		case kWhere:
			add(st.args[1], Where(a, A, zero))
			add(st.args[2], Where(a, zero, A))
		case kCast:
			if d := s.stepType[st.args[0]]; d != weak {
				add(st.args[0], Cast(A, d))
			}
		case kCall:
			f := c.funcs[st.index]
			if f.Grad == nil {
				if anyNeeds(needs, st.args) {
					return nil, nil, c.errorf(ops.ErrGrad, "%s: DeviceFunc %s has no Grad, so the chain is not differentiable through it", c.position(i), f.Name)
				}
				continue
			}
			args := make([]Expr, len(st.args))
			for j, x := range st.args {
				args[j] = e[x]
			}
			parts := f.Grad(args)
			if len(parts) != len(args) {
				return nil, nil, c.errorf(ops.ErrGrad, "%s: %s's Grad returned %d partial derivatives for %d arguments", c.position(i), f.Name, len(parts), len(args))
			}
			for j, x := range st.args {
				if parts[j].n == nil {
					return nil, nil, c.errorf(ops.ErrGrad, "%s: %s's Grad returned the zero Expr for argument %d", c.position(i), f.Name, j)
				}
				add(x, A.Mul(parts[j]))
			}
		}
	}
	// Each input's gradient: the sum over its In steps.
	var outs []Expr
	var gradOf []int
	for j := range c.nIn {
		var g *Expr
		for i, st := range c.steps {
			if st.kind == kInput && st.index == j && adj[i] != nil {
				if g == nil {
					g = adj[i]
				} else {
					sum := Add(*g, *adj[i])
					g = &sum
				}
			}
		}
		if g != nil {
			outs, gradOf = append(outs, *g), append(gradOf, j)
		}
	}
	if len(outs) == 0 {
		return nil, nil, nil
	}
	name := c.name + "_grad"
	for m, k := range with {
		if m > 0 {
			name += "_"
		}
		name += fmt.Sprint(k)
	}
	bc, err := build(name, outs, c.opts, c.nIn+len(with), c.nArg, false)
	if err != nil {
		return nil, nil, fmt.Errorf("fuse.%s: deriving the backward of outputs %v: %w", c.name, with, err)
	}
	bc.gradOf = gradOf
	c.mu.Lock()
	c.grads[key] = bc
	c.mu.Unlock()
	return bc, gradOf, nil
}

func anyNeeds(needs []bool, args []int) bool {
	for _, a := range args {
		if needs[a] {
			return true
		}
	}
	return false
}

// backwardFunc returns the backward of a call of spec s, whose outputs the
// dispatcher makes one autograd node when an input requires grad. The
// backward of every output is derived first, so a chain that is not
// differentiable fails before the call rather than in Backward.
func (c *Chain) backwardFunc(s *spec, nOut int, scalars []float64) (ops.FuncBackward, error) {
	all := make([]int, nOut)
	for k := range all {
		all[k] = k
	}
	allBC, allOf, err := c.backward(s, all)
	if err != nil {
		return nil, err
	}
	sc := append([]float64(nil), scalars...)
	return func(ctx context.Context, grads, in, _ []*ops.Tensor) ([]*ops.Tensor, error) {
		var with []int
		bin := append([]*ops.Tensor{}, in...)
		for k, g := range grads {
			if g != nil {
				with, bin = append(with, k), append(bin, g)
			}
		}
		if testHookBackward != nil {
			testHookBackward(c, with)
		}
		res := make([]*ops.Tensor, len(in))
		bc, gradOf := allBC, allOf
		if len(with) < len(grads) {
			var err error
			if bc, gradOf, err = c.backward(s, with); err != nil {
				return nil, err
			}
		}
		if bc == nil {
			return res, nil
		}
		gs, err := bc.Call(ctx, bin, sc...)
		if err != nil {
			return nil, err
		}
		for m, j := range gradOf {
			if res[j], err = sumTo(ctx, gs[m], in[j].Shape()); err != nil {
				return nil, fmt.Errorf("fuse.%s: the gradient of broadcast input %d: %w", c.name, j, err)
			}
		}
		return res, nil
	}, nil
}

// testHookBackward, when set by a test, is called by each backward of a
// call with the outputs that received gradients.
var testHookBackward func(c *Chain, with []int)

// sumTo returns g (contiguous, of the broadcast shape) summed over the
// dimensions along which an input of shape sh was broadcast: g itself when
// there are none, else a MatMul of g's elements, the summed dimensions
// last, by a vector of ones (so float32 sums follow cuda.SetAllowTF32).
func sumTo(ctx context.Context, g *ops.Tensor, sh []int) (*ops.Tensor, error) {
	out := g.Shape()
	if equalInts(out, sh) {
		return g, nil
	}
	r := len(out)
	p := make([]int, r)
	for d := range p {
		p[d] = 1
	}
	copy(p[r-len(sh):], sh)
	var perm []int
	var red []int
	m, k := 1, 1
	for d := range r {
		if p[d] == 1 && out[d] != 1 {
			red = append(red, d)
			k *= out[d]
		} else {
			perm = append(perm, d)
			m *= out[d]
		}
	}
	perm = append(perm, red...)
	if m == 0 || k == 0 {
		z, err := ops.Full(0, g.DType(), sh...)
		if err != nil {
			return nil, err
		}
		return z.To(ctx, g.Device())
	}
	v := g
	cur := make([]int, r)
	for d := range cur {
		cur[d] = d
	}
	for i, want := range perm {
		pos := i
		for cur[pos] != want {
			pos++
		}
		if pos != i {
			var err error
			if v, err = v.Transpose(i, pos); err != nil {
				return nil, err
			}
			cur[i], cur[pos] = cur[pos], cur[i]
		}
	}
	c, err := v.Contiguous(ctx)
	if err != nil {
		return nil, err
	}
	mat, err := c.Reshape(m, k)
	if err != nil {
		return nil, err
	}
	ones, err := ops.Full(1, g.DType(), k, 1)
	if err == nil {
		ones, err = ones.To(ctx, g.Device())
	}
	if err != nil {
		return nil, err
	}
	sum, err := ops.MatMul(ctx, mat, ones)
	if err != nil {
		return nil, err
	}
	return sum.Reshape(sh...)
}

// GradSourceFor returns the CUDA source of the backward kernel of a call
// in which the given outputs (distinct, ascending) received gradients, for
// inputs of the given dtypes (contiguous, n elements), or "" when those
// outputs depend on no input. The kernel's inputs are the chain's followed
// by the gradients of those outputs.
func (c *Chain) GradSourceFor(outputs []int, n int, dtypes ...ops.DType) (string, error) {
	if len(outputs) == 0 {
		return "", c.errorf(ops.ErrArg, "no outputs given")
	}
	for m, k := range outputs {
		if k < 0 || k >= len(c.outputs) {
			return "", c.errorf(ops.ErrArg, "output %d does not exist (%d outputs)", k, len(c.outputs))
		}
		if m > 0 && k <= outputs[m-1] {
			return "", c.errorf(ops.ErrArg, "outputs %v are not distinct and ascending", outputs)
		}
	}
	s, err := c.specFor(driver.Vector, 0, n, dtypes)
	if err != nil {
		return "", err
	}
	bc, _, err := c.backward(s, outputs)
	if err != nil || bc == nil {
		return "", err
	}
	bt := append([]ops.DType{}, dtypes...)
	for _, k := range outputs {
		bt = append(bt, s.OutDTypes[k])
	}
	bs, err := bc.SpecFor(n, bt...)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(bs.Source), nil
}
