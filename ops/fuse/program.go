package fuse

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// Options change how a Chain is compiled.
type Options struct {
	// Exact compiles without floating-point contraction (NVRTC's
	// --fmad=false): a*b+c is then rounded twice on the GPU, as on the CPU,
	// so +, -, *, /, Sqrt, comparisons, Min, Max, Where, Abs, Neg and Casts
	// give the CPU path's bits. The default lets the compiler contract a
	// multiply and an add into one FMA (one rounding, faster), which can
	// change the last bit of such results. Math functions (Exp, Log, Tanh,
	// Sigmoid, Erf, Pow, Sin, Cos) are CUDA's (within their documented ulp
	// bounds) in both modes, never bit-exact with Go's math package.
	Exact bool
}

// Chain is an elementwise computation compiled into one kernel per
// combination of input dtypes, layout class and device architecture (made
// on first use and cached in memory and, for the GPU, on disk). A Chain is
// safe for concurrent use.
type Chain struct {
	name    string
	opts    Options
	steps   []step // topological order; each step's args precede it
	outputs []int  // the step of each output
	nIn     int    // number of tensor inputs (1 + the largest In index)
	nArg    int    // number of scalar arguments (1 + the largest Arg index)
	consts  []float64
	funcs   []*DeviceFunc
	sig     string // the structure, for cache keys

	mu      sync.Mutex
	specs   map[string]*spec   // by dtypes and layout (spec)
	typings map[string]*typing // by dtypes (typed)
	grads   map[string]*Chain  // backward chains, by dtypes and the outputs with gradients (backward)

	gradOf []int // for a backward chain: the forward input of each output
}

// step is one node of a chain in its topological order.
type step struct {
	kind  kind
	op    op
	index int // kInput: input; kArg: argument; kConst: constant slot; kCall: function
	dtype ops.DType
	args  []int // steps
	what  string
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// New builds a chain named name (used in errors and kernel names) whose
// outputs are the given Exprs. It checks the structure (no zero Expr,
// indices >= 0, valid Cast dtypes, DeviceFuncs with a C name, a Source and
// the right number of arguments); dtypes and shapes are checked by Call.
// The inputs are In(0) ... In(n-1), where n-1 is the largest index used;
// every input must be used.
func New(name string, outputs []Expr, opts Options) (*Chain, error) {
	return build(name, outputs, opts, 0, 0, true)
}

// build makes a chain with at least nIn inputs and nArg arguments; strict
// requires every input to be used.
func build(name string, outputs []Expr, opts Options, nIn, nArg int, strict bool) (*Chain, error) {
	if name == "" {
		name = "chain"
	}
	c := &Chain{name: name, opts: opts, nIn: nIn, nArg: nArg, specs: map[string]*spec{}, typings: map[string]*typing{}, grads: map[string]*Chain{}}
	if len(outputs) == 0 {
		return nil, c.errorf(ops.ErrArg, "no outputs")
	}
	ids := map[*node]int{}
	funcs := map[*DeviceFunc]int{}
	usedIn := map[int]bool{}
	var visit func(n *node, path string) (int, error)
	visit = func(n *node, path string) (int, error) {
		if n == nil {
			return 0, c.errorf(ops.ErrArg, "%s is the zero Expr (build Exprs with In, Const, Arg and the operations)", path)
		}
		if id, ok := ids[n]; ok {
			return id, nil
		}
		s := step{kind: n.kind, op: n.op, index: n.index, dtype: n.dtype, what: n.describe()}
		for j, a := range n.args {
			id, err := visit(a, fmt.Sprintf("%s argument %d of %s", path, j, n.describe()))
			if err != nil {
				return 0, err
			}
			s.args = append(s.args, id)
		}
		switch n.kind {
		case kInput, kArg:
			if n.index < 0 {
				return 0, c.errorf(ops.ErrArg, "%s: %s has a negative index", path, n.describe())
			}
			if n.kind == kInput {
				usedIn[n.index] = true
				c.nIn = max(c.nIn, n.index+1)
			} else {
				c.nArg = max(c.nArg, n.index+1)
			}
		case kConst:
			s.index = len(c.consts)
			c.consts = append(c.consts, n.value)
		case kCast:
			if n.dtype < ops.Float32 || n.dtype > ops.BFloat16 {
				return 0, c.errorf(ops.ErrDType, "%s: Cast to %v: expected float32, float64, float16 or bfloat16", path, n.dtype)
			}
		case kCall:
			f := n.fn
			if f == nil {
				return 0, c.errorf(ops.ErrArg, "%s: Call of a nil DeviceFunc", path)
			}
			if !identRE.MatchString(f.Name) || strings.TrimSpace(f.Source) == "" {
				return 0, c.errorf(ops.ErrArg, "%s: DeviceFunc %q needs a C identifier as Name and a Source defining it", path, f.Name)
			}
			if len(n.args) != f.Arity {
				return 0, c.errorf(ops.ErrArg, "%s: %s takes %d arguments (Arity), called with %d", path, f.Name, f.Arity, len(n.args))
			}
			if other, ok := funcs[f]; !ok {
				for _, g := range c.funcs {
					if g.Name == f.Name {
						return 0, c.errorf(ops.ErrArg, "%s: two different DeviceFuncs are named %q", path, f.Name)
					}
				}
				funcs[f] = len(c.funcs)
				s.index = len(c.funcs)
				c.funcs = append(c.funcs, f)
			} else {
				s.index = other
			}
		}
		ids[n] = len(c.steps)
		c.steps = append(c.steps, s)
		return ids[n], nil
	}
	for i, o := range outputs {
		id, err := visit(o.n, fmt.Sprintf("output %d", i))
		if err != nil {
			return nil, err
		}
		c.outputs = append(c.outputs, id)
	}
	for i := range c.nIn {
		if strict && !usedIn[i] {
			return nil, c.errorf(ops.ErrArg, "input %d is not used (the inputs are In(0) to In(%d), each used)", i, c.nIn-1)
		}
	}
	c.sig = c.signature()
	return c, nil
}

// MustNew is New for chains built in package variables: it panics on an
// error, like regexp.MustCompile.
func MustNew(name string, outputs []Expr, opts Options) *Chain {
	c, err := New(name, outputs, opts)
	if err != nil {
		panic(err)
	}
	return c
}

// Name returns the chain's name.
func (c *Chain) Name() string { return c.name }

// NumInputs returns the number of tensor inputs Call takes.
func (c *Chain) NumInputs() int { return c.nIn }

// NumArgs returns the number of scalar arguments Call takes.
func (c *Chain) NumArgs() int { return c.nArg }

// NumOutputs returns the number of outputs Call returns.
func (c *Chain) NumOutputs() int { return len(c.outputs) }

// signature describes the structure (not the constants' values) in one string.
func (c *Chain) signature() string {
	var b strings.Builder
	fmt.Fprintf(&b, "in%d arg%d const%d exact=%v;", c.nIn, c.nArg, len(c.consts), c.opts.Exact)
	for i, s := range c.steps {
		fmt.Fprintf(&b, "%d=%d.%d.%d.%d%v;", i, s.kind, s.op, s.index, s.dtype, s.args)
	}
	fmt.Fprintf(&b, "out%v;", c.outputs)
	for _, f := range c.funcs {
		fmt.Fprintf(&b, "fn %s/%d %d:%s;", f.Name, f.Arity, len(f.Source), f.Source)
	}
	return b.String()
}

// errorf returns an *ops.OpError of kind for the chain.
func (c *Chain) errorf(kind error, format string, a ...any) error {
	return &ops.OpError{Op: "fuse." + c.name, Kind: kind, Detail: fmt.Sprintf(format, a...)}
}

// position names step i for errors: "step 3 (Add), in output 0".
func (c *Chain) position(i int) string {
	return fmt.Sprintf("step %d (%s)", i, c.steps[i].what)
}
