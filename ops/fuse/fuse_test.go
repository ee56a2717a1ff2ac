package fuse_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse/fusetest"
)

var ctx = context.Background()

// TestCasesCPU checks every case of fusetest (each op and function, several
// inputs and outputs, casts, user functions) in every dtype and layout
// against its float64 reference on the CPU.
func TestCasesCPU(t *testing.T) {
	for _, c := range fusetest.Cases() {
		t.Run(c.Name, func(t *testing.T) {
			if err := fusetest.CheckValues(ctx, c, ops.CPU); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestGradCheckCPU(t *testing.T) {
	for _, c := range fusetest.Cases() {
		if c.NoGrad {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			if err := fusetest.CheckGrad(ctx, c, ops.CPU); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestBroadcastAndLayouts(t *testing.T) {
	if err := fusetest.CheckBroadcast(ctx, ops.CPU); err != nil {
		t.Error(err)
	}
	if err := fusetest.CheckGradBroadcast(ctx, ops.CPU); err != nil {
		t.Error(err)
	}
}

// TestExact: a*b+c in float32 is rounded twice, like Go's float32
// arithmetic, bit for bit (the GPU's Exact mode gives the same bits).
func TestExact(t *testing.T) {
	c := fuse.MustNew("fma", []fuse.Expr{fuse.In(0).Mul(fuse.In(1)).Add(fuse.In(2))}, fuse.Options{Exact: true})
	a := []float32{1.0000001, 3.3333333, -7.25e-3, 1e30}
	b := []float32{0.99999994, 3.0000002, 1234.5677, 1e-30}
	d := []float32{-1, -10, 0.1, 3}
	in := make([]*ops.Tensor, 3)
	for j, v := range [][]float32{a, b, d} {
		in[j], _ = ops.FromFloat32(v, len(v))
	}
	y, err := c.Call1(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := y.Float32s()
	for i := range a {
		want := float32(a[i]*b[i]) + d[i]
		if got[i] != want {
			t.Errorf("element %d: %v, want %v (bits %x, %x)", i, got[i], want, math.Float32bits(got[i]), math.Float32bits(want))
		}
	}
	s, err := c.SpecFor(4, ops.Float32, ops.Float32, ops.Float32)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(s.Options, " "), "--fmad=false") {
		t.Errorf("Exact chain compiles with %v, want --fmad=false", s.Options)
	}
}

func TestCacheKey(t *testing.T) {
	mk := func(a, b float64, exact bool) *fuse.Chain {
		return fuse.MustNew("k", []fuse.Expr{fuse.In(0).AddScalar(a).MulScalar(b)}, fuse.Options{Exact: exact})
	}
	key := func(c *fuse.Chain, n int, d ops.DType) string {
		s, err := c.SpecFor(n, d)
		if err != nil {
			t.Fatal(err)
		}
		return s.Key
	}
	c1, c2 := mk(0.25, 0.5, false), mk(3, -1, false)
	if key(c1, 10, ops.Float32) != key(c2, 10, ops.Float32) {
		t.Error("chains that differ only in constants have different keys; constants are kernel arguments")
	}
	if key(c1, 10, ops.Float32) == key(c1, 10, ops.Float16) {
		t.Error("float32 and float16 specs share a key")
	}
	if key(c1, 10, ops.Float32) == key(mk(0.25, 0.5, true), 10, ops.Float32) {
		t.Error("Exact and default chains share a key")
	}
	if key(c1, 10, ops.Float32) == key(c1, 1<<31, ops.Float32) {
		t.Error("32-bit and 64-bit index specs share a key")
	}
	s1, _ := c1.SpecFor(10, ops.Float32)
	s2, _ := c2.SpecFor(10, ops.Float32)
	if s1.Source != s2.Source {
		t.Error("chains that differ only in constants generate different sources")
	}
}

func TestErrors(t *testing.T) {
	x, _ := ops.FromFloat32([]float32{1, 2, 3}, 3)
	x64, _ := ops.FromFloat64([]float64{1, 2, 3}, 3)
	y4, _ := ops.FromFloat32([]float32{1, 2, 3, 4}, 4)
	add := fuse.MustNew("add", []fuse.Expr{fuse.Exp(fuse.In(0)).Add(fuse.In(1))}, fuse.Options{})
	cases := []struct {
		name string
		err  error
		want error
		text []string
	}{
		{"zero Expr", func() error { _, err := fuse.New("z", []fuse.Expr{fuse.Exp(fuse.Expr{})}, fuse.Options{}); return err }(),
			ops.ErrArg, []string{"fuse.z", "output 0 argument 0 of Exp is the zero Expr"}},
		{"unused input", func() error { _, err := fuse.New("u", []fuse.Expr{fuse.In(1)}, fuse.Options{}); return err }(),
			ops.ErrArg, []string{"input 0 is not used"}},
		{"arity", func() error {
			f := &fuse.DeviceFunc{Name: "f", Source: "__device__ float f(float x) { return x; }", Arity: 1}
			_, err := fuse.New("a", []fuse.Expr{f.Call(fuse.In(0), fuse.In(0))}, fuse.Options{})
			return err
		}(), ops.ErrArg, []string{"f takes 1 arguments"}},
		{"bad cast", func() error {
			_, err := fuse.New("c", []fuse.Expr{fuse.Cast(fuse.In(0), 9)}, fuse.Options{})
			return err
		}(),
			ops.ErrDType, []string{"Cast to"}},
		{"dtype mix", func() error { _, err := add.Call(ctx, []*ops.Tensor{x, x64}); return err }(),
			ops.ErrDType, []string{"fuse.add", "step 3 (Add)", "float32 and float64", "fuse.Cast"}},
		{"int32", func() error {
			i, _ := ops.FromInt32([]int32{1, 2, 3}, 3)
			_, err := add.Call(ctx, []*ops.Tensor{x, i})
			return err
		}(), ops.ErrDType, []string{"fuse.add", "input 1 has dtype int32"}},
		{"shape", func() error { _, err := add.Call(ctx, []*ops.Tensor{x, y4}); return err }(),
			ops.ErrShape, []string{"input 1 has shape [4]", "does not broadcast with [3]"}},
		{"count", func() error { _, err := add.Call(ctx, []*ops.Tensor{x}); return err }(),
			ops.ErrArg, []string{"got 1 tensor inputs and 0 scalar arguments, expected 2 and 0"}},
		{"nil", func() error { _, err := add.Call(ctx, []*ops.Tensor{x, nil}); return err }(),
			ops.ErrNil, []string{"input 1 is nil"}},
		{"freed", func() error {
			z, _ := ops.FromFloat32([]float32{1, 2, 3}, 3)
			z.Free()
			_, err := add.Call(ctx, []*ops.Tensor{x, z})
			return err
		}(), ops.ErrFreed, []string{"input 1 has been freed"}},
		{"no CPU", func() error {
			f := &fuse.DeviceFunc{Name: "g", Source: "__device__ float g(float x) { return x; }", Arity: 1}
			c := fuse.MustNew("nocpu", []fuse.Expr{f.Call(fuse.In(0))}, fuse.Options{})
			_, err := c.Call(ctx, []*ops.Tensor{x})
			return err
		}(), ops.ErrNoKernel, []string{"DeviceFunc g has no CPU implementation"}},
		{"no grad", func() error {
			f := &fuse.DeviceFunc{Name: "h", Source: "__device__ float h(float x) { return x; }", Arity: 1,
				CPU: func(a []float64) float64 { return a[0] }}
			c := fuse.MustNew("nograd", []fuse.Expr{f.Call(fuse.In(0))}, fuse.Options{})
			l, _ := ops.FromFloat32([]float32{1, 2, 3}, 3)
			l.SetRequiresGrad(true)
			_, err := c.Call(ctx, []*ops.Tensor{l})
			return err
		}(), ops.ErrGrad, []string{"step 1 (h)", "has no Grad"}},
	}
	for _, c := range cases {
		if !errors.Is(c.err, c.want) {
			t.Errorf("%s: error %v, want one wrapping %v", c.name, c.err, c.want)
			continue
		}
		for _, s := range c.text {
			if !strings.Contains(c.err.Error(), s) {
				t.Errorf("%s: error %q does not say %q", c.name, c.err, s)
			}
		}
	}
	// A failed call leaves the chain usable.
	if _, err := add.Call(ctx, []*ops.Tensor{x, x}); err != nil {
		t.Errorf("add after errors: %v", err)
	}
}

func TestEmptyAndZeroDim(t *testing.T) {
	c := fuse.MustNew("e", []fuse.Expr{fuse.Exp(fuse.In(0)), fuse.In(0).AddScalar(1)}, fuse.Options{})
	for _, shape := range [][]int{{0}, {3, 0}, {}} {
		x, _ := ops.Full(2, ops.Float32, shape...)
		outs, err := c.Call(ctx, []*ops.Tensor{x})
		if err != nil {
			t.Fatalf("shape %v: %v", shape, err)
		}
		for k, o := range outs {
			if fmt.Sprint(o.Shape()) != fmt.Sprint(x.Shape()) {
				t.Errorf("shape %v: output %d has shape %v", shape, k, o.Shape())
			}
		}
	}
}
