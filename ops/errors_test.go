package ops

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// wantErr checks errors.Is(err, kind) and that the message contains msg.
func wantErr(t *testing.T, what string, err, kind error, msg string) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("%s: got error %v, want %v", what, err, kind)
	}
	if !strings.Contains(err.Error(), msg) {
		t.Fatalf("%s: message %q does not contain %q", what, err, msg)
	}
	var oe *OpError
	if !errors.As(err, &oe) {
		t.Fatalf("%s: %T is not an *OpError", what, err)
	}
}

func TestOpErrors(t *testing.T) {
	ctx := context.Background()
	m := must(t)
	x64 := m(FromFloat64([]float64{1, 2, 3}))
	y32 := m(FromFloat32([]float32{1, 2, 3}))
	x4 := m(FromFloat64([]float64{1, 2, 3, 4}))
	xcuda := m(m(FromFloat64([]float64{1, 2, 3})).To(ctx, CUDA(0)))
	freed := m(FromFloat64([]float64{1, 2, 3}))
	if err := freed.Free(); err != nil {
		t.Fatal(err)
	}
	a34 := m(Zeros(Float64, 3, 4))
	b56 := m(Zeros(Float64, 5, 6))

	_, err := Axpby(ctx, 1, x64, 1, y32)
	wantErr(t, "dtype", err, ErrDType, "ops.Axpby: y has dtype float32, expected float64 (same as x); ops do not promote dtypes: convert one explicitly, e.g. y.AsType(ops.Float64)")
	_, err = Axpby(ctx, 1, x64, 1, x4)
	wantErr(t, "shape", err, ErrShape, "ops.Axpby: y has shape [4], expected [3] (same as x)")
	_, err = Axpby(ctx, 1, x64, 1, xcuda)
	wantErr(t, "device", err, ErrDevice, "ops.Axpby: y is on cuda:0, expected cpu (same as x)")
	_, err = Axpby(ctx, 1, nil, 1, x64)
	wantErr(t, "nil", err, ErrNil, "ops.Axpby: x is nil")
	_, err = Axpby(ctx, 1, x64, 1, freed)
	wantErr(t, "freed", err, ErrFreed, "ops.Axpby: y has been freed")
	_, err = MatMul(ctx, a34, b56)
	wantErr(t, "matmul", err, ErrShape, "ops.MatMul: a has shape [3 4], b has shape [5 6]: inner dimensions must match")
	_, err = MatMul(ctx, x64, b56)
	wantErr(t, "matmul rank", err, ErrShape, "ops.MatMul: a has shape [3], expected 2-D [M K]")
	_, err = RowSoftmax(ctx, x64)
	wantErr(t, "softmax rank", err, ErrShape, "ops.RowSoftmax: x has shape [3], expected 2-D [B D]")
	_, err = Norm(ctx, freed)
	wantErr(t, "norm freed", err, ErrFreed, "ops.Norm: x has been freed")
	_, err = Polynomial(ctx, nil, 1, 2, 3, 4)
	wantErr(t, "poly nil", err, ErrNil, "ops.Polynomial: x is nil")
	_, err = polynomialBackward(ctx, x64, y32, 1, 2, 3)
	wantErr(t, "polyback dtype", err, ErrDType, "ops.PolynomialBackward: x has dtype float32, expected float64 (same as gradOut)")
	_, err = Norm(ctx, xcuda)
	wantErr(t, "no kernel", err, ErrNoKernel, "ops.Norm: no kernel registered for device cuda:0")
	_, err = Builtin.Axpby.Call(ctx, []*Tensor{x64}, Args{Floats: []float64{1, 2}})
	wantErr(t, "arg count", err, ErrArg, "ops.Axpby: got 1 tensor and 2 float arguments, expected tensors [x y] and floats (Args.Floats) [a b]")

	var oe *OpError
	_, err = Axpby(ctx, 1, x64, 1, y32)
	errors.As(err, &oe)
	if oe.Op != "Axpby" || oe.Arg != "y" || oe.Kind != ErrDType {
		t.Fatalf("OpError fields %+v", oe)
	}
}

func TestTensorErrors(t *testing.T) {
	ctx := context.Background()
	m := must(t)
	x := m(Zeros(Float64, 3, 4))
	_, err := FromFloat64([]float64{1, 2, 3}, 2, 2)
	wantErr(t, "data len", err, ErrShape, "ops.FromFloat64: data has 3 elements, shape [2 2] needs 4")
	_, err = Zeros(Float32, 2, -1)
	wantErr(t, "negative dim", err, ErrShape, "ops.Zeros: shape [2 -1] has negative dimension -1 at index 1")
	_, err = Full(1, DType(9), 2)
	wantErr(t, "dtype", err, ErrDType, "ops.Full: dtype DType(9) is not supported")
	_, err = Rand(1, Float32, 1<<40, 1<<40)
	wantErr(t, "overflow", err, ErrShape, "too many elements")
	_, err = x.Reshape(5, -1)
	wantErr(t, "reshape", err, ErrShape, "ops.Reshape: shape [5 -1] is invalid for input of shape [3 4] (12 elements)")
	_, err = x.Reshape(-1, -1)
	wantErr(t, "reshape", err, ErrShape, "only one dimension may be -1")
	_, err = x.Transpose(0, 2)
	wantErr(t, "transpose", err, ErrArg, "ops.Transpose: d1 is 2, expected a dimension in [0, 2) for shape [3 4]")
	_, err = x.Narrow(1, 2, 3)
	wantErr(t, "narrow", err, ErrArg, "ops.Narrow: start 2 and length 3 are out of range for dimension 1 of size 4")
	_, err = x.Item()
	wantErr(t, "item", err, ErrShape, "ops.Item: tensor has shape [3 4] (12 elements), expected exactly 1 element")
	_, err = x.To(ctx, Device{Type: DeviceCPU, Index: 1})
	wantErr(t, "bad device", err, ErrDevice, "ops.To: device cpu:1 is invalid")
	_, err = x.To(ctx, CUDA(-1))
	wantErr(t, "bad device", err, ErrDevice, "ops.To: device cuda:-1 is invalid")
	var nilT *Tensor
	_, err = nilT.Transpose(0, 1)
	wantErr(t, "nil", err, ErrNil, "ops.Transpose: tensor is nil")
	_, err = nilT.Float64s()
	wantErr(t, "nil", err, ErrNil, "ops.Float64s: tensor is nil")
	_, err = AddScalar(ctx, &Tensor{}, 1)
	wantErr(t, "zero tensor", err, ErrNil, "ops.AddScalar: x is a zero Tensor")
	_, err = (&Tensor{}).Reshape(1)
	wantErr(t, "zero tensor", err, ErrNil, "ops.Reshape: tensor is a zero Tensor")
	if err := nilT.Free(); err != nil {
		t.Fatal("Free(nil) should be a no-op")
	}

	// Freed tensors: every use fails, for all views of the storage.
	v := m(x.Transpose(0, 1))
	if err := x.Free(); err != nil {
		t.Fatal(err)
	}
	if err := x.Free(); err != nil {
		t.Fatal("second Free should be a no-op")
	}
	for name, f := range map[string]func() error{
		"Float64s":  func() error { _, err := x.Float64s(); return err },
		"Float32s":  func() error { _, err := v.Float32s(); return err },
		"Reshape":   func() error { _, err := v.Reshape(12); return err },
		"Narrow":    func() error { _, err := x.Narrow(0, 0, 1); return err },
		"To":        func() error { _, err := x.To(ctx, CUDA(0)); return err },
		"AddScalar": func() error { _, err := AddScalar(ctx, v, 1); return err },
		"Item":      func() error { _, err := v.Item(); return err },
	} {
		wantErr(t, name, f(), ErrFreed, "freed")
	}
	if x.Storage() != nil || !strings.Contains(x.String(), "freed") {
		t.Fatalf("freed tensor still has storage: %v", x)
	}
}

func TestNoBackend(t *testing.T) {
	ctx := context.Background()
	backends.mu.Lock()
	saved := backends.m[DeviceCUDA]
	backends.m[DeviceCUDA] = nil
	backends.mu.Unlock()
	defer func() {
		backends.mu.Lock()
		backends.m[DeviceCUDA] = saved
		backends.mu.Unlock()
	}()
	x := must(t)(Zeros(Float32, 2))
	_, err := x.To(ctx, CUDA(0))
	wantErr(t, "no backend", err, ErrNoBackend, "ops.To: no backend registered for device cuda:0")
}

func TestRegisterPanics(t *testing.T) {
	mustPanic := func(name string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Fatalf("%s did not panic", name)
			}
		}()
		f()
	}
	mustPanic("duplicate op", func() {
		RegisterOp(OpDef{Name: "Axpby", Args: []Arg{{"x", KindTensor}}, Shape: sameShape("x")})
	})
	mustPanic("no tensor arg", func() {
		RegisterOp(OpDef{Name: "TestNoTensor", Args: []Arg{{"s", KindFloat}}, Shape: sameShape("x")})
	})
	mustPanic("nil kernel", func() { Builtin.AddScalar.RegisterKernel(DeviceCUDA, nil) })
	mustPanic("duplicate kernel", func() { Builtin.AddScalar.RegisterKernel(DeviceCUDA, fakeAddScalar) })
	mustPanic("duplicate backend", func() { RegisterBackend(fakeCUDA) })
	if LookupOp("MatMul") == nil || LookupOp("MatMul").Name() != "MatMul" || LookupOp("nope") != nil {
		t.Fatal("LookupOp")
	}
}
