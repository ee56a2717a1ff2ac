package ops

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// Every function that queues work refuses a nil context with ErrArg.
func TestNilContext(t *testing.T) {
	x, err := Full(1, Float64, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	var nilCtx context.Context
	for name, f := range map[string]func() error{
		"AddScalar":  func() error { _, err := AddScalar(nilCtx, x, 1); return err },
		"Op.Call":    func() error { _, err := Builtin.MatMul.Call(nilCtx, []*Tensor{x, x}, Args{}); return err },
		"To":         func() error { _, err := x.To(nilCtx, CUDA(0)); return err },
		"Contiguous": func() error { _, err := x.Contiguous(nilCtx); return err },
		"AsType":     func() error { _, err := x.AsType(nilCtx, Float32); return err },
		"Backward":   func() error { return x.Backward(nilCtx) },
		"GradCheck": func() error {
			return GradCheck(nilCtx, func(ctx context.Context, in []*Tensor) (*Tensor, error) { return in[0], nil }, []*Tensor{x}, GradCheckOptions{})
		},
		"Synchronize": func() error { return Synchronize(nilCtx, CPU) },
	} {
		if err := f(); !errors.Is(err, ErrArg) || !strings.Contains(err.Error(), "context is nil") {
			t.Errorf("%s with a nil context: %v, want ErrArg naming the context", name, err)
		}
	}
}

// The non-tensor arguments are typed: each kind is checked against the
// schema, and reaches the shape rule and the kernel as its Go type.
func TestTypedArgs(t *testing.T) {
	ctx := context.Background()
	x, err := Full(1, Float32, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Builtin.AddScalar.Call(ctx, []*Tensor{x}, Args{Ints: []int{1}})
	wantErr(t, "ints for floats", err, ErrArg, "ops.AddScalar: got 1 tensor and 1 int arguments, expected tensors [x] and floats (Args.Floats) [s]")
	_, err = Builtin.NarrowBackward.Call(ctx, []*Tensor{x}, Args{Ints: []int{1, 0}})
	wantErr(t, "too few ints", err, ErrArg, "ops.NarrowBackward: got 1 tensor and 2 int arguments, expected tensors [gradOut] and ints (Args.Ints) [dim start size]")
	_, err = narrowBackward(ctx, x, 2, 0, 5)
	wantErr(t, "dim out of range", err, ErrArg, "ops.NarrowBackward: dim is 2, expected a dimension in [0, 2)")
	_, err = narrowBackward(ctx, x, 1, 3, 5)
	wantErr(t, "too long", err, ErrArg, "ops.NarrowBackward: start 3 and gradOut's size 3 along dim 1 do not fit in size 5")
	y, err := narrowBackward(ctx, x, 1, 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := y.Float64s(); !slices.Equal(y.Shape(), []int{2, 5}) || !slices.Equal(got, []float64{0, 0, 1, 1, 1, 0, 0, 1, 1, 1}) {
		t.Errorf("NarrowBackward(ones [2 3], 1, 2, 5) = %v %v", y, got)
	}
	// AsType is an op like the others: its output takes the dtype of its argument.
	h, err := Builtin.AsType.Call(ctx, []*Tensor{x}, Args{DTypes: []DType{Float16}})
	if err != nil || h.DType() != Float16 {
		t.Fatalf("AsType through Op.Call = %v, %v; want a float16 tensor", h, err)
	}
	_, err = Builtin.AsType.Call(ctx, []*Tensor{x}, Args{DTypes: []DType{DType(9)}})
	wantErr(t, "bad dtype", err, ErrDType, "ops.AsType: dtype DType(9) is not supported")
	if LookupOp("AsType") != Builtin.AsType || !slices.Contains(BuiltinOps(), Builtin.AsType) {
		t.Error("AsType is not a registered built-in op")
	}
}

// ContiguousInputs hands a kernel contiguous inputs, whatever their views.
var contiguousOnlyOp = RegisterOp(OpDef{
	Name:  "TestContiguousOnly",
	Args:  []Arg{{"x", KindTensor}, {"y", KindTensor}},
	Shape: sameShape("x", "y"),
	CPU: ContiguousInputs(func(_ context.Context, out *Tensor, in []*Tensor, _ Args) error {
		x, y, o := HostView[float64](in[0]), HostView[float64](in[1]), HostView[float64](out)
		if x == nil || y == nil {
			return errors.New("an input is not contiguous")
		}
		for i := range o {
			o[i] = x[i] - y[i]
		}
		return nil
	}),
})

func TestContiguousInputs(t *testing.T) {
	ctx := context.Background()
	a, _ := FromFloat64([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	b, _ := FromFloat64([]float64{1, 1, 1, 2, 2, 2}, 3, 2)
	bt, _ := b.Transpose(0, 1) // [[1 1 2] [1 2 2]]
	y, err := contiguousOnlyOp.Call(ctx, []*Tensor{a, bt}, Args{})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := y.Float64s(); !slices.Equal(got, []float64{0, 1, 1, 3, 3, 4}) {
		t.Errorf("a - bᵀ = %v", got)
	}
}

// HostView of an empty view is an empty slice, not nil, wherever the view
// starts.
func TestHostViewEmpty(t *testing.T) {
	x, _ := Zeros(Float32, 0, 6)
	v, err := x.Narrow(1, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if h := HostView[float32](v); h == nil || len(h) != 0 {
		t.Errorf("HostView of an empty view at offset %d = %#v, want an empty slice", v.Offset(), h)
	}
	if h := HostView[float64](v); h != nil {
		t.Errorf("HostView[float64] of a float32 tensor = %#v, want nil", h)
	}
}

// A backward function gets its forward call's context, without its
// cancellation.
type ctxValueKey struct{}

var seenByBackward []any

var recordsCtxOp = RegisterOp(OpDef{
	Name:  "TestRecordsCtx",
	Args:  []Arg{{"x", KindTensor}},
	Shape: sameShape("x"),
	Backward: func(ctx context.Context, g *Tensor, _ []*Tensor, _ Args, _ *Tensor) ([]*Tensor, error) {
		seenByBackward = append(seenByBackward, ctx.Value(ctxValueKey{}), ctx.Err())
		return []*Tensor{g}, nil
	},
	CPU: byElem(contiguousCPU[float32], contiguousCPU[float64], nil, nil),
})

func TestBackwardGetsTheForwardContext(t *testing.T) {
	x, _ := FromFloat64([]float64{1, 2})
	if err := x.SetRequiresGrad(true); err != nil {
		t.Fatal(err)
	}
	fwd, cancel := context.WithCancel(context.WithValue(context.Background(), ctxValueKey{}, "forward"))
	y, err := recordsCtxOp.Call(fwd, []*Tensor{x}, Args{})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	n, err := Norm(context.Background(), y)
	if err != nil {
		t.Fatal(err)
	}
	seenByBackward = nil
	if err := n.Backward(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seenByBackward, []any{"forward", nil}) {
		t.Errorf("the backward saw (value, Err()) = %v, want the forward's value, not cancelled", seenByBackward)
	}
}

// Backward stops between nodes once its context is done.
func TestBackwardCancelled(t *testing.T) {
	x, _ := FromFloat64([]float64{1, 2})
	if err := x.SetRequiresGrad(true); err != nil {
		t.Fatal(err)
	}
	y, err := Scale(context.Background(), x, 2)
	if err != nil {
		t.Fatal(err)
	}
	n, err := Norm(context.Background(), y)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := n.Backward(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Backward with a cancelled context = %v, want context.Canceled", err)
	}
	if x.Grad() != nil {
		t.Errorf("Backward stopped before its first node left a gradient %v", x.Grad())
	}
	if err := n.Backward(context.Background()); err != nil || x.Grad() == nil {
		t.Errorf("Backward after the cancelled one: %v, grad %v", err, x.Grad())
	}
}
