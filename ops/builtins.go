package ops

import (
	"cmp"
	"slices"
)

// Builtin holds the ops this package declares, one field each, registered
// at package initialization; the package documentation lists them with
// their arguments. They are ops like any other: a device backend registers
// its kernels on them (ops/cuda: Builtin.AddScalar.RegisterKernel(
// ops.DeviceCUDA, ...)), an op's backward may call them, and their names
// and arguments come from them (Op.Name, Op.Args).
var Builtin struct {
	AddScalar, Scale, Axpby            *Op // elementwise with scalars
	Polynomial, PolynomialBackward     *Op // a*x³ + b*x² + c*x + d, fused, and its gradient
	Norm, NormBackward                 *Op // the L2 norm and its gradient
	RowSoftmax, RowSoftmaxBackward     *Op // softmax of each row and its gradient
	MatMul                             *Op // matrix product
	Contiguous, NarrowBackward, AsType *Op // copies: contiguous, Narrow's gradient, dtype conversion
}

// builtins are the ops this package registers itself, in registration order.
var builtins []*Op

// registerBuiltin registers one of this package's own ops (the one place it
// is declared: its name, arguments, shape rule, backward and CPU kernel);
// its init function puts the result in its field of Builtin.
func registerBuiltin(def OpDef) *Op {
	o := RegisterOp(def)
	builtins = append(builtins, o)
	return o
}

// BuiltinOps returns the ops of Builtin sorted by name: the ops a device
// backend provides kernels for. Ops registered by other packages are not
// included; LookupOp finds those too.
func BuiltinOps() []*Op {
	s := slices.Clone(builtins)
	slices.SortFunc(s, func(a, b *Op) int { return cmp.Compare(a.Name(), b.Name()) })
	return s
}
