package ops_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/backward"
)

func ExampleFromFloat64() {
	x, err := ops.FromFloat64([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	if err != nil {
		panic(err)
	}
	xt, _ := x.Transpose(0, 1) // a view: no copy
	v, _ := xt.Float64s()
	fmt.Println(xt.Shape(), xt.Strides(), xt.IsContiguous(), v)

	col, _ := x.Narrow(1, 1, 1)
	v, _ = col.Float64s()
	fmt.Println(col.Shape(), col.Offset(), v)
	// Output:
	// [3 2] [1 3] false [1 4 2 5 3 6]
	// [2 1] 1 [2 5]
}

func ExampleAxpby() {
	ctx := context.Background()
	x, _ := ops.FromFloat32([]float32{1, 2, 3})
	y, _ := ops.FromFloat32([]float32{10, 20, 30})
	z, err := ops.Axpby(ctx, 2, x, 0.5, y) // 2x + 0.5y
	if err != nil {
		panic(err)
	}
	v, _ := z.Float32s()
	fmt.Println(v, z.DType(), z.Device())

	// Bad input is an error naming the op and argument.
	y64, _ := ops.FromFloat64([]float64{1, 2, 3})
	_, err = ops.Axpby(ctx, 2, x, 0.5, y64)
	fmt.Println(err)
	fmt.Println(errors.Is(err, ops.ErrDType))
	// Output:
	// [7 14 21] float32 cpu
	// ops.Axpby: y has dtype float64, expected float32 (same as x); ops do not promote dtypes: convert one explicitly, e.g. y.AsType(ops.Float32)
	// true
}

func ExampleTensor_Backward() {
	ctx := context.Background()
	// loss = ‖x·w‖ for x [1, 2] and w [2, 1].
	x, _ := ops.FromFloat64([]float64{3, 4}, 1, 2)
	w, _ := ops.FromFloat64([]float64{1, 1}, 2, 1)
	_ = x.SetRequiresGrad(true)
	_ = w.SetRequiresGrad(true)
	y, _ := ops.MatMul(ctx, x, w)             // 7
	y, _ = ops.Polynomial(ctx, y, 0, 1, 0, 0) // 49: d/dy = 2y = 14
	loss, _ := ops.Norm(ctx, y)
	if err := loss.Backward(ctx); err != nil {
		panic(err)
	}
	l, _ := loss.Item()
	gx, _ := x.Grad().Float64s()
	gw, _ := w.Grad().Float64s()
	fmt.Println(l, gx, gw)
	// Output: 49 [14 14] [42 56]
}

// squareCPU is the CPU kernel of the Square op below: out = x*x. Wrapped
// in ops.ContiguousInputs, it gets x contiguous whatever its strides.
func squareCPU(_ context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	switch out.DType() {
	case ops.Float32:
		y, x := ops.HostView[float32](out), ops.HostView[float32](in[0])
		for i, v := range x {
			y[i] = v * v
		}
	case ops.Float64:
		y, x := ops.HostView[float64](out), ops.HostView[float64](in[0])
		for i, v := range x {
			y[i] = v * v
		}
	default:
		return fmt.Errorf("square: dtype %v: %w", out.DType(), ops.ErrDType)
	}
	return nil
}

var squareOp = ops.RegisterOp(ops.OpDef{
	Name:  "ExampleSquare",
	Args:  []ops.Arg{{Name: "x", Kind: ops.KindTensor}},
	Shape: func(in []*ops.Tensor, _ ops.Args) ([]int, error) { return in[0].Shape(), nil },
	Backward: func(ctx context.Context, g *ops.Tensor, in []*ops.Tensor, _ ops.Args, _ *ops.Tensor) ([]*ops.Tensor, error) {
		gx, err := backward.Polynomial(ctx, g, in[0], 0, 1, 0) // g * 2x
		return []*ops.Tensor{gx}, err
	},
	CPU: ops.ContiguousInputs(squareCPU),
})

// Square returns x*x elementwise.
func Square(ctx context.Context, x *ops.Tensor) (*ops.Tensor, error) {
	return squareOp.Call(ctx, []*ops.Tensor{x}, ops.Args{})
}

func ExampleRegisterOp() {
	ctx := context.Background()
	x, _ := ops.FromFloat64([]float64{1, 2, 3, 4}, 2, 2)
	xt, _ := x.Transpose(0, 1)
	y, _ := Square(ctx, xt)
	v, _ := y.Float64s()
	fmt.Println(v)

	err := ops.GradCheck(ctx, func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return Square(ctx, in[0]) },
		[]*ops.Tensor{requiresGrad(xt.Detach())}, ops.GradCheckOptions{})
	fmt.Println("gradcheck:", err)
	// Output:
	// [1 9 4 16]
	// gradcheck: <nil>
}

func requiresGrad(t *ops.Tensor) *ops.Tensor {
	_ = t.SetRequiresGrad(true)
	return t
}
