package ops

import (
	"context"
	"slices"
)

// Builtin.AsType converts its input to the dtype of its argument. Backends
// convert on their device with an "AsType" kernel; without one, AsType
// goes through host memory.
func init() {
	Builtin.AsType = registerBuiltin(OpDef{
		Name: "AsType",
		Args: []Arg{{"x", KindTensor}, {"dtype", KindDType}},
		Shape: func(in []*Tensor, args Args) ([]int, error) {
			if err := checkDType("", args.DTypes[0]); err != nil {
				return nil, err
			}
			return slices.Clone(in[0].shape), nil
		},
		DType: func(_ []*Tensor, args Args) DType { return args.DTypes[0] },
		Backward: func(ctx context.Context, g *Tensor, in []*Tensor, _ Args, _ *Tensor) ([]*Tensor, error) {
			gx, err := g.AsType(ctx, in[0].dtype)
			return []*Tensor{gx}, err
		},
		CPU: asTypeCPU,
	})
}

// AsType returns a contiguous copy of t with its elements converted to
// dtype, on t's device (t itself if it has dtype already), made by an op
// called with ctx. Ops never mix dtypes; AsType is how to convert
// explicitly, like torch's Tensor.to(dtype). Widening (to float32 from the
// 16-bit dtypes, to float64 from any) is exact; narrowing rounds to
// nearest even, through float32 from float64. It is the op "AsType"
// (tensor x, dtype dtype), whose output has the dtype of its argument: a
// backend with an AsType kernel (ops/cuda) converts on its device, tensors
// of other backends are converted through host memory. The result records
// AsType for autograd: its gradient is the incoming gradient converted
// back to t's dtype.
func (t *Tensor) AsType(ctx context.Context, dtype DType) (*Tensor, error) {
	op := Builtin.AsType.Name()
	if err := checkCtx(op, ctx); err != nil {
		return nil, err
	}
	if err := t.check(op, "x"); err != nil {
		return nil, err
	}
	if err := checkDType(op, dtype); err != nil {
		return nil, err
	}
	if dtype == t.dtype {
		return t, nil
	}
	args := Args{DTypes: []DType{dtype}}
	if hasKernel(Builtin.AsType, t.device.Type) {
		return Builtin.AsType.Call(ctx, []*Tensor{t}, args)
	}
	h, release, err := t.hostView(op)
	if err != nil {
		return nil, err
	}
	out, err := Builtin.AsType.call(ctx, op, []*Tensor{h}, args, false)
	release()
	if err != nil {
		return nil, err
	}
	if out, err = out.To(ctx, t.device); err != nil {
		return nil, err
	}
	from := t.dtype
	recordUnary(out, op, t, func(ctx context.Context, g *Tensor) (*Tensor, error) { return g.AsType(ctx, from) })
	return out, nil
}

// asTypeCPU converts a CPU tensor of any layout into out's dtype.
func asTypeCPU(_ context.Context, out *Tensor, in []*Tensor, _ Args) error {
	h, s := in[0], out.cpu()
	switch out.dtype {
	case Float32:
		gatherTo(s.f32, h)
	case Float64:
		gatherTo(s.f64, h)
	default:
		tmp := make([]float32, h.Numel())
		gatherTo(tmp, h)
		storeRounded(s, tmp)
	}
	return nil
}
