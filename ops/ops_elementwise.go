package ops

import "context"

// Elementwise ops. CPU kernels compute in float64 and round once to the
// output dtype.

func init() {
	Builtin.AddScalar = registerBuiltin(OpDef{
		Name:  "AddScalar",
		Args:  []Arg{{"x", KindTensor}, {"s", KindFloat}},
		Shape: sameShape("x"),
		Backward: func(_ context.Context, g *Tensor, _ []*Tensor, _ Args, _ *Tensor) ([]*Tensor, error) {
			return []*Tensor{g}, nil
		},
		CPU: byDType(addScalarCPU[float32], addScalarCPU[float64]),
	})
}

// AddScalar returns x + s elementwise.
func AddScalar(ctx context.Context, x *Tensor, s float64) (*Tensor, error) {
	return Builtin.AddScalar.Call(ctx, []*Tensor{x}, Args{Floats: []float64{s}})
}

func addScalarCPU[T float](out *Tensor, in []*Tensor, args Args) {
	s := args.Floats[0]
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

func init() {
	Builtin.Scale = registerBuiltin(OpDef{
		Name:  "Scale",
		Args:  []Arg{{"x", KindTensor}, {"s", KindFloat}},
		Shape: sameShape("x"),
		Backward: func(ctx context.Context, g *Tensor, _ []*Tensor, args Args, _ *Tensor) ([]*Tensor, error) {
			gx, err := scale(ctx, g, args.Floats[0])
			return []*Tensor{gx}, err
		},
		CPU: byDType(scaleCPU[float32], scaleCPU[float64]),
	})
}

// Scale returns s * x (x * s in PyTorch), a new tensor.
func Scale(ctx context.Context, x *Tensor, s float64) (*Tensor, error) {
	return Builtin.Scale.Call(ctx, []*Tensor{x}, Args{Floats: []float64{s}})
}

// scale returns s*x (x itself when s == 1), for backward functions.
func scale(ctx context.Context, x *Tensor, s float64) (*Tensor, error) {
	if s == 1 {
		return x, nil
	}
	return Scale(ctx, x, s)
}

func scaleCPU[T float](out *Tensor, in []*Tensor, args Args) {
	s := args.Floats[0]
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

func init() {
	Builtin.Axpby = registerBuiltin(OpDef{
		Name:  "Axpby",
		Args:  []Arg{{"a", KindFloat}, {"x", KindTensor}, {"b", KindFloat}, {"y", KindTensor}},
		Shape: sameShape("x", "y"),
		Backward: func(ctx context.Context, g *Tensor, _ []*Tensor, args Args, _ *Tensor) ([]*Tensor, error) {
			gx, err := scale(ctx, g, args.Floats[0])
			if err != nil {
				return nil, err
			}
			gy, err := scale(ctx, g, args.Floats[1])
			return []*Tensor{gx, gy}, err
		},
		CPU: byDType(axpbyCPU[float32], axpbyCPU[float64]),
	})
}

// Axpby returns a*x + b*y elementwise; x and y must have the same shape,
// dtype and device.
func Axpby(ctx context.Context, a float64, x *Tensor, b float64, y *Tensor) (*Tensor, error) {
	return Builtin.Axpby.Call(ctx, []*Tensor{x, y}, Args{Floats: []float64{a, b}})
}

func axpbyCPU[T float](out *Tensor, in []*Tensor, args Args) {
	a, b := args.Floats[0], args.Floats[1]
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

func init() {
	Builtin.Polynomial = registerBuiltin(OpDef{
		Name:  "Polynomial",
		Args:  []Arg{{"x", KindTensor}, {"a", KindFloat}, {"b", KindFloat}, {"c", KindFloat}, {"d", KindFloat}},
		Shape: sameShape("x"),
		Backward: func(ctx context.Context, g *Tensor, in []*Tensor, args Args, _ *Tensor) ([]*Tensor, error) {
			f := args.Floats
			gx, err := polynomialBackward(ctx, g, in[0], f[0], f[1], f[2])
			return []*Tensor{gx}, err
		},
		CPU: byDType(polynomialCPU[float32], polynomialCPU[float64]),
	})
}

// Polynomial returns a*x³ + b*x² + c*x + d elementwise, in one fused pass
// (Horner's scheme).
func Polynomial(ctx context.Context, x *Tensor, a, b, c, d float64) (*Tensor, error) {
	return Builtin.Polynomial.Call(ctx, []*Tensor{x}, Args{Floats: []float64{a, b, c, d}})
}

func polynomialCPU[T float](out *Tensor, in []*Tensor, args Args) {
	a, b, c, d := args.Floats[0], args.Floats[1], args.Floats[2], args.Floats[3]
	ew1(out, in[0], func(dst, xd []T, xo, xs int) {
		for i := range dst {
			v := float64(xd[xo])
			dst[i] = T(((a*v+b)*v+c)*v + d)
			xo += xs
		}
	})
}

func init() {
	Builtin.PolynomialBackward = registerBuiltin(OpDef{
		Name:  "PolynomialBackward",
		Args:  []Arg{{"gradOut", KindTensor}, {"x", KindTensor}, {"a", KindFloat}, {"b", KindFloat}, {"c", KindFloat}},
		Shape: sameShape("gradOut", "x"),
		CPU:   byDType(polynomialBackwardCPU[float32], polynomialBackwardCPU[float64]),
	})
}

// polynomialBackward returns gradOut * (3a*x² + 2b*x + c) elementwise, the
// gradient of Polynomial with respect to x, in one fused pass. It is not
// itself differentiable.
func polynomialBackward(ctx context.Context, gradOut, x *Tensor, a, b, c float64) (*Tensor, error) {
	return Builtin.PolynomialBackward.Call(ctx, []*Tensor{gradOut, x}, Args{Floats: []float64{a, b, c}})
}

func polynomialBackwardCPU[T float](out *Tensor, in []*Tensor, args Args) {
	a3, b2, c := 3*args.Floats[0], 2*args.Floats[1], args.Floats[2]
	ew2(out, in[0], in[1], func(dst, gd, xd []T, gOff, gs, xo, xs int) {
		for i := range dst {
			v := float64(xd[xo])
			dst[i] = T(float64(gd[gOff]) * ((a3*v+b2)*v + c))
			gOff += gs
			xo += xs
		}
	})
}
