package fuse

import (
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// Expr is one value of an elementwise computation: an input tensor's
// element, a scalar, or an operation on other Exprs. Exprs are immutable
// and may be shared (a DAG: a shared Expr is computed once per element).
// The zero Expr is invalid; New reports where one is used.
type Expr struct{ n *node }

// kind is what a node computes.
type kind uint8

const (
	kInput kind = iota
	kConst
	kArg
	kUnary
	kBinary
	kWhere
	kCast
	kCall
)

// op names a unary or binary operation.
type op uint8

const (
	opNeg op = iota
	opAbs
	opExp
	opLog
	opSqrt
	opTanh
	opSigmoid
	opErf
	opSin
	opCos
	opAdd
	opSub
	opMul
	opDiv
	opPow
	opMin
	opMax
	opLt
	opLe
	opGt
	opGe
	opEq
	opNe
)

var opNames = [...]string{
	opNeg: "Neg", opAbs: "Abs", opExp: "Exp", opLog: "Log", opSqrt: "Sqrt", opTanh: "Tanh",
	opSigmoid: "Sigmoid", opErf: "Erf", opSin: "Sin", opCos: "Cos", opAdd: "Add", opSub: "Sub",
	opMul: "Mul", opDiv: "Div", opPow: "Pow", opMin: "Min", opMax: "Max", opLt: "Lt", opLe: "Le",
	opGt: "Gt", opGe: "Ge", opEq: "Eq", opNe: "Ne",
}

func (o op) String() string { return opNames[o] }

func (o op) comparison() bool { return o >= opLt }

// node is an Expr's operation.
type node struct {
	kind  kind
	op    op
	index int     // kInput: the input; kArg: the argument
	value float64 // kConst
	dtype ops.DType
	fn    *DeviceFunc
	args  []*node
}

func mk(k kind, args ...Expr) Expr {
	n := &node{kind: k}
	for _, a := range args {
		n.args = append(n.args, a.n)
	}
	return Expr{n}
}

// In is the element of tensor input i (the i-th tensor passed to
// Chain.Call), loaded as float32 (float64 for a float64 input; 16-bit
// inputs are widened exactly).
func In(i int) Expr { return Expr{&node{kind: kInput, index: i}} }

// Const is a scalar constant. Its value is a kernel argument, not part of
// the generated code, so chains that differ only in constants share one
// compiled kernel. A scalar takes the dtype of what it is combined with
// (like a Python scalar in PyTorch), computed in float32 or float64.
func Const(v float64) Expr { return Expr{&node{kind: kConst, value: v}} }

// Arg is the i-th scalar argument of Chain.Call (scalars[i]), a kernel
// argument like a Const.
func Arg(i int) Expr { return Expr{&node{kind: kArg, index: i}} }

func unary(o op, a Expr) Expr {
	e := mk(kUnary, a)
	e.n.op = o
	return e
}

func binary(o op, a, b Expr) Expr {
	e := mk(kBinary, a, b)
	e.n.op = o
	return e
}

// Neg returns -a.
func Neg(a Expr) Expr { return unary(opNeg, a) }

// Abs returns |a|.
func Abs(a Expr) Expr { return unary(opAbs, a) }

// Exp returns e^a.
func Exp(a Expr) Expr { return unary(opExp, a) }

// Log returns the natural logarithm of a.
func Log(a Expr) Expr { return unary(opLog, a) }

// Sqrt returns the square root of a.
func Sqrt(a Expr) Expr { return unary(opSqrt, a) }

// Tanh returns the hyperbolic tangent of a.
func Tanh(a Expr) Expr { return unary(opTanh, a) }

// Sigmoid returns 1/(1+e^-a).
func Sigmoid(a Expr) Expr { return unary(opSigmoid, a) }

// Erf returns the error function of a.
func Erf(a Expr) Expr { return unary(opErf, a) }

// Sin returns the sine of a.
func Sin(a Expr) Expr { return unary(opSin, a) }

// Cos returns the cosine of a.
func Cos(a Expr) Expr { return unary(opCos, a) }

// Add returns a+b.
func Add(a, b Expr) Expr { return binary(opAdd, a, b) }

// Sub returns a-b.
func Sub(a, b Expr) Expr { return binary(opSub, a, b) }

// Mul returns a*b.
func Mul(a, b Expr) Expr { return binary(opMul, a, b) }

// Div returns a/b.
func Div(a, b Expr) Expr { return binary(opDiv, a, b) }

// Pow returns a^b (C's pow: powf for float32 computations).
func Pow(a, b Expr) Expr { return binary(opPow, a, b) }

// Min returns the smaller of a and b; if one is NaN, the other (C's fmin).
func Min(a, b Expr) Expr { return binary(opMin, a, b) }

// Max returns the larger of a and b; if one is NaN, the other (C's fmax).
func Max(a, b Expr) Expr { return binary(opMax, a, b) }

// Lt returns 1 where a < b, else 0 (in a's dtype).
func Lt(a, b Expr) Expr { return binary(opLt, a, b) }

// Le returns 1 where a <= b, else 0.
func Le(a, b Expr) Expr { return binary(opLe, a, b) }

// Gt returns 1 where a > b, else 0.
func Gt(a, b Expr) Expr { return binary(opGt, a, b) }

// Ge returns 1 where a >= b, else 0.
func Ge(a, b Expr) Expr { return binary(opGe, a, b) }

// Eq returns 1 where a == b, else 0.
func Eq(a, b Expr) Expr { return binary(opEq, a, b) }

// Ne returns 1 where a != b (or either is NaN), else 0.
func Ne(a, b Expr) Expr { return binary(opNe, a, b) }

// Where returns a where cond is not 0, else b (cond may have any dtype;
// a and b share one).
func Where(cond, a, b Expr) Expr { return mk(kWhere, cond, a, b) }

// Cast converts a to dtype: the value is rounded to dtype's precision (to
// nearest even) and computed on in dtype's compute type (float32 for
// float32, float16 and bfloat16; float64 for float64).
func Cast(a Expr, dtype ops.DType) Expr {
	e := mk(kCast, a)
	e.n.dtype = dtype
	return e
}

// Add returns e+b.
func (e Expr) Add(b Expr) Expr { return Add(e, b) }

// Sub returns e-b.
func (e Expr) Sub(b Expr) Expr { return Sub(e, b) }

// Mul returns e*b.
func (e Expr) Mul(b Expr) Expr { return Mul(e, b) }

// Div returns e/b.
func (e Expr) Div(b Expr) Expr { return Div(e, b) }

// AddScalar returns e+Const(s).
func (e Expr) AddScalar(s float64) Expr { return Add(e, Const(s)) }

// MulScalar returns e*Const(s).
func (e Expr) MulScalar(s float64) Expr { return Mul(e, Const(s)) }

// DeviceFunc is a function written in CUDA C++ that a chain calls
// elementwise, with its Go counterpart for the CPU and, optionally, its
// derivatives for autograd.
type DeviceFunc struct {
	// Name is the function's name in Source, a C identifier.
	Name string
	// Source defines it: a __device__ function taking Arity arguments of
	// the compute type (float or double: define both, or a template, for
	// chains in both) and returning it, e.g.
	//	__device__ float silu(float x) { return x / (1.0f + expf(-x)); }
	Source string
	// Arity is its number of arguments.
	Arity int
	// CPU computes it on the CPU (in float64; results of float32
	// computations are rounded to float32). Nil: chains calling it have no
	// CPU path and fail on CPU tensors with an error that says so.
	CPU func(args []float64) float64
	// Grad returns, given Exprs for its arguments, the partial derivative
	// with respect to each argument as an Expr (which may call other
	// DeviceFuncs). Nil: chains calling it are not differentiable.
	Grad func(args []Expr) []Expr
}

// Call applies f to args elementwise.
func (f *DeviceFunc) Call(args ...Expr) Expr {
	e := mk(kCall, args...)
	e.n.fn = f
	return e
}

// describe names a node for messages: "Add", "In(0)", "Cast(float16)", "silu(...)".
func (n *node) describe() string {
	switch n.kind {
	case kInput:
		return fmt.Sprintf("In(%d)", n.index)
	case kConst:
		return fmt.Sprintf("Const(%g)", n.value)
	case kArg:
		return fmt.Sprintf("Arg(%d)", n.index)
	case kUnary, kBinary:
		return n.op.String()
	case kWhere:
		return "Where"
	case kCast:
		return fmt.Sprintf("Cast(%v)", n.dtype)
	case kCall:
		if n.fn == nil {
			return "Call(nil DeviceFunc)"
		}
		return n.fn.Name
	}
	return "?"
}
