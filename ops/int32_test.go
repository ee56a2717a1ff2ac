package ops

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestInt32Tensors(t *testing.T) {
	ctx := context.Background()
	x, err := FromInt32([]int32{0, 1, 2, 3, -4, 5}, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if x.DType() != Int32 || x.DType().String() != "int32" || x.DType().Size() != 4 {
		t.Fatalf("dtype %v (%d bytes), want int32 (4 bytes)", x.DType(), x.DType().Size())
	}
	if got, err := x.Int32s(); err != nil || !slices.Equal(got, []int32{0, 1, 2, 3, -4, 5}) {
		t.Fatalf("Int32s = %v, %v", got, err)
	}
	if got := HostView[int32](x); !slices.Equal(got, []int32{0, 1, 2, 3, -4, 5}) {
		t.Fatalf("HostView[int32] = %v", got)
	}
	if HostView[float32](x) != nil {
		t.Fatal("HostView[float32] of an int32 tensor is not nil")
	}
	if f, err := x.Float64s(); err != nil || !slices.Equal(f, []float64{0, 1, 2, 3, -4, 5}) {
		t.Fatalf("Float64s = %v, %v", f, err)
	}
	// A transposed view made contiguous (the Contiguous op moves int32 too).
	xt, err := x.Transpose(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	c, err := xt.Contiguous(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := c.Int32s(); err != nil || !slices.Equal(got, []int32{0, 3, 1, -4, 2, 5}) {
		t.Fatalf("Contiguous of the transpose = %v, %v", got, err)
	}
	if got, err := xt.Int32s(); err != nil || !slices.Equal(got, []int32{0, 3, 1, -4, 2, 5}) {
		t.Fatalf("Int32s of the transpose = %v, %v", got, err)
	}
	z, err := Zeros(Int32, 4)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := z.Int32s(); !slices.Equal(got, []int32{0, 0, 0, 0}) {
		t.Fatalf("Zeros = %v", got)
	}
	f, err := Full(-1, Int32, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := f.Int32s(); !slices.Equal(got, []int32{-1, -1, -1}) {
		t.Fatalf("Full(-1) = %v", got)
	}
	if _, err := FromInt32([]int32{1, 2}, 3); !errors.Is(err, ErrShape) {
		t.Errorf("FromInt32 of 2 values as [3]: %v, want ErrShape", err)
	}
}

func TestInt32Errors(t *testing.T) {
	ctx := context.Background()
	x, _ := FromInt32([]int32{1, 2, 3})
	y, _ := FromFloat32([]float32{1, 2, 3})
	for _, c := range []struct {
		what string
		err  error
		kind error
		text string
	}{
		{"AddScalar", second(AddScalar(ctx, x, 1)), ErrDType, "ops.AddScalar: x has dtype int32"},
		{"Norm", second(Norm(ctx, x)), ErrDType, "int32"},
		{"AsType(float32)", second(x.AsType(ctx, Float32)), ErrDType, "int32"},
		{"AsType(int32)", second(y.AsType(ctx, Int32)), ErrDType, "int32"},
		{"Axpby", second(Axpby(ctx, 1, y, 1, x)), ErrDType, "int32"},
		{"Full(0.5)", second(Full(0.5, Int32, 2)), ErrArg, "not an int32"},
		{"Rand", second(Rand(1, Int32, 2)), ErrDType, "int32"},
		{"Int32s of float32", second(y.Int32s()), ErrDType, "expected int32"},
		{"SetRequiresGrad", x.SetRequiresGrad(true), ErrDType, "floating-point"},
	} {
		if !errors.Is(c.err, c.kind) || !strings.Contains(fmtErr(c.err), c.text) {
			t.Errorf("%s: error %v, want %v naming %q", c.what, c.err, c.kind, c.text)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func fmtErr(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
