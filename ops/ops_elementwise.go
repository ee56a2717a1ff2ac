package ops

import "context"

// Elementwise ops. CPU kernels compute in float64 and round once to the
// output dtype.

var addScalarOp *Op

func init() {
	addScalarOp = registerBuiltin(OpDef{
		Name:  "AddScalar",
		Args:  []Arg{{"x", KindTensor}, {"s", KindScalar}},
		Shape: sameShape("x"),
		Backward: func(g *Tensor, _ []*Tensor, _ []float64, _ *Tensor) ([]*Tensor, error) {
			return []*Tensor{g}, nil
		},
		CPU: byDType(addScalarCPU[float32], addScalarCPU[float64]),
	})
}

// AddScalar returns x + s elementwise.
func AddScalar(x *Tensor, s float64) (*Tensor, error) {
	return addScalarOp.Call([]*Tensor{x}, []float64{s})
}

// AddScalarContext is AddScalar queued where ctx says (Op.CallContext).
func AddScalarContext(ctx context.Context, x *Tensor, s float64) (*Tensor, error) {
	return addScalarOp.CallContext(ctx, []*Tensor{x}, []float64{s})
}

func addScalarCPU[T float](out *Tensor, in []*Tensor, sc []float64) {
	s := sc[0]
	ew1(out, in[0], func(dst, xd []T, xo, xs int) {
		if xs == 1 {
			for i, v := range xd[xo : xo+len(dst)] {
				dst[i] = T(float64(v) + s)
			}
			return
		}
		for i := range dst {
			dst[i] = T(float64(xd[xo]) + s)
			xo += xs
		}
	})
}

var scaleOp *Op

func init() {
	scaleOp = registerBuiltin(OpDef{
		Name:  "Scale",
		Args:  []Arg{{"x", KindTensor}, {"s", KindScalar}},
		Shape: sameShape("x"),
		BackwardContext: func(ctx context.Context, g *Tensor, _ []*Tensor, sc []float64, _ *Tensor) ([]*Tensor, error) {
			gx, err := scale(ctx, g, sc[0])
			return []*Tensor{gx}, err
		},
		CPU: byDType(scaleCPU[float32], scaleCPU[float64]),
	})
}

// Scale returns s * x (x * s in PyTorch), a new tensor.
func Scale(x *Tensor, s float64) (*Tensor, error) {
	return scaleOp.Call([]*Tensor{x}, []float64{s})
}

// ScaleContext is Scale queued where ctx says (Op.CallContext).
func ScaleContext(ctx context.Context, x *Tensor, s float64) (*Tensor, error) {
	return scaleOp.CallContext(ctx, []*Tensor{x}, []float64{s})
}

// scale returns s*x (x itself when s == 1), for backward functions.
func scale(ctx context.Context, x *Tensor, s float64) (*Tensor, error) {
	if s == 1 {
		return x, nil
	}
	return scaleOp.CallContext(ctx, []*Tensor{x}, []float64{s})
}

func scaleCPU[T float](out *Tensor, in []*Tensor, sc []float64) {
	s := sc[0]
	ew1(out, in[0], func(dst, xd []T, xo, xs int) {
		if xs == 1 {
			for i, v := range xd[xo : xo+len(dst)] {
				dst[i] = T(s * float64(v))
			}
			return
		}
		for i := range dst {
			dst[i] = T(s * float64(xd[xo]))
			xo += xs
		}
	})
}

var axpbyOp *Op

func init() {
	axpbyOp = registerBuiltin(OpDef{
		Name:  "Axpby",
		Args:  []Arg{{"a", KindScalar}, {"x", KindTensor}, {"b", KindScalar}, {"y", KindTensor}},
		Shape: sameShape("x", "y"),
		BackwardContext: func(ctx context.Context, g *Tensor, _ []*Tensor, sc []float64, _ *Tensor) ([]*Tensor, error) {
			gx, err := scale(ctx, g, sc[0])
			if err != nil {
				return nil, err
			}
			gy, err := scale(ctx, g, sc[1])
			return []*Tensor{gx, gy}, err
		},
		CPU: byDType(axpbyCPU[float32], axpbyCPU[float64]),
	})
}

// Axpby returns a*x + b*y elementwise; x and y must have the same shape,
// dtype and device.
func Axpby(a float64, x *Tensor, b float64, y *Tensor) (*Tensor, error) {
	return axpbyOp.Call([]*Tensor{x, y}, []float64{a, b})
}

// AxpbyContext is Axpby queued where ctx says (Op.CallContext).
func AxpbyContext(ctx context.Context, a float64, x *Tensor, b float64, y *Tensor) (*Tensor, error) {
	return axpbyOp.CallContext(ctx, []*Tensor{x, y}, []float64{a, b})
}

func axpbyCPU[T float](out *Tensor, in []*Tensor, sc []float64) {
	a, b := sc[0], sc[1]
	ew2(out, in[0], in[1], func(dst, xd, yd []T, xo, xs, yo, ys int) {
		if xs == 1 && ys == 1 {
			x, y := xd[xo:xo+len(dst)], yd[yo:yo+len(dst)]
			for i := range dst {
				dst[i] = T(a*float64(x[i]) + b*float64(y[i]))
			}
			return
		}
		for i := range dst {
			dst[i] = T(a*float64(xd[xo]) + b*float64(yd[yo]))
			xo += xs
			yo += ys
		}
	})
}

var polynomialOp *Op

func init() {
	polynomialOp = registerBuiltin(OpDef{
		Name:  "Polynomial",
		Args:  []Arg{{"x", KindTensor}, {"a", KindScalar}, {"b", KindScalar}, {"c", KindScalar}, {"d", KindScalar}},
		Shape: sameShape("x"),
		BackwardContext: func(ctx context.Context, g *Tensor, in []*Tensor, sc []float64, _ *Tensor) ([]*Tensor, error) {
			gx, err := PolynomialBackwardContext(ctx, g, in[0], sc[0], sc[1], sc[2])
			return []*Tensor{gx}, err
		},
		CPU: byDType(polynomialCPU[float32], polynomialCPU[float64]),
	})
}

// Polynomial returns a*x³ + b*x² + c*x + d elementwise, in one fused pass
// (Horner's scheme).
func Polynomial(x *Tensor, a, b, c, d float64) (*Tensor, error) {
	return polynomialOp.Call([]*Tensor{x}, []float64{a, b, c, d})
}

// PolynomialContext is Polynomial queued where ctx says (Op.CallContext).
func PolynomialContext(ctx context.Context, x *Tensor, a, b, c, d float64) (*Tensor, error) {
	return polynomialOp.CallContext(ctx, []*Tensor{x}, []float64{a, b, c, d})
}

func polynomialCPU[T float](out *Tensor, in []*Tensor, sc []float64) {
	a, b, c, d := sc[0], sc[1], sc[2], sc[3]
	ew1(out, in[0], func(dst, xd []T, xo, xs int) {
		for i := range dst {
			v := float64(xd[xo])
			dst[i] = T(((a*v+b)*v+c)*v + d)
			xo += xs
		}
	})
}

var polynomialBackwardOp *Op

func init() {
	polynomialBackwardOp = registerBuiltin(OpDef{
		Name:  "PolynomialBackward",
		Args:  []Arg{{"gradOut", KindTensor}, {"x", KindTensor}, {"a", KindScalar}, {"b", KindScalar}, {"c", KindScalar}},
		Shape: sameShape("gradOut", "x"),
		CPU:   byDType(polynomialBackwardCPU[float32], polynomialBackwardCPU[float64]),
	})
}

// PolynomialBackward returns gradOut * (3a*x² + 2b*x + c) elementwise, the
// gradient of Polynomial with respect to x, in one fused pass. It is not
// itself differentiable.
func PolynomialBackward(gradOut, x *Tensor, a, b, c float64) (*Tensor, error) {
	return polynomialBackwardOp.Call([]*Tensor{gradOut, x}, []float64{a, b, c})
}

// PolynomialBackwardContext is PolynomialBackward queued where ctx says
// (Op.CallContext).
func PolynomialBackwardContext(ctx context.Context, gradOut, x *Tensor, a, b, c float64) (*Tensor, error) {
	return polynomialBackwardOp.CallContext(ctx, []*Tensor{gradOut, x}, []float64{a, b, c})
}

func polynomialBackwardCPU[T float](out *Tensor, in []*Tensor, sc []float64) {
	a3, b2, c := 3*sc[0], 2*sc[1], sc[2]
	ew2(out, in[0], in[1], func(dst, gd, xd []T, gOff, gs, xo, xs int) {
		for i := range dst {
			v := float64(xd[xo])
			dst[i] = T(float64(gd[gOff]) * ((a3*v+b2)*v + c))
			gOff += gs
			xo += xs
		}
	})
}
