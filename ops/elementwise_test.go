package ops

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// elemCase enumerates (dtype, shape, layout) combinations for elementwise
// tests: 1-D sizes with 1-D layouts and multi-dimensional shapes with all
// layouts.
func forEachElemCase(t *testing.T, fn func(t *testing.T, dtype DType, shape []int, kind string)) {
	var shapes [][]int
	for _, n := range elemSizes() {
		shapes = append(shapes, []int{n})
	}
	shapes = append(shapes, elemShapes...)
	for _, dtype := range dtypes {
		for _, shape := range shapes {
			kinds := kindsFor(shape)
			if raceEnabled && numel(shape) > 1<<16 {
				kinds = []string{kStrided}
			}
			for _, kind := range kinds {
				t.Run(fmt.Sprintf("%v/%v/%s", dtype, shape, kind), func(t *testing.T) {
					fn(t, dtype, shape, kind)
				})
			}
		}
	}
}

// elemTol: kernels compute in float64 and round once (the 16-bit dtypes
// through float32: one more rounding at 2^-24, far below theirs), so the
// error is at most one rounding of the result plus float64 rounding of the
// terms, and half a subnormal spacing for float16 results below 2^-14.
func elemTol(dtype DType, want, scale []float64) func(int) float64 {
	u := unitRoundoff(dtype)
	return func(i int) float64 { return 2*u*math.Abs(want[i]) + 1e-14*scale[i] + tiny(dtype) }
}

func TestAddScalar(t *testing.T) {
	ctx := context.Background()
	forEachElemCase(t, func(t *testing.T, dtype DType, shape []int, kind string) {
		data := roundTo(dtype, randData(1, numel(shape), -2, 2))
		x := makeView(t, dtype, data, shape, kind)
		const s = 0.625
		out := must(t)(AddScalar(ctx, x, s))
		if !slices.Equal(out.Shape(), shape) || out.DType() != dtype || !out.IsContiguous() || out.Device() != CPU {
			t.Fatalf("bad output metadata %v", out)
		}
		want, scale := make([]float64, len(data)), make([]float64, len(data))
		for i, v := range data {
			want[i] = v + s
			scale[i] = math.Abs(v) + s
		}
		closeTo(t, "AddScalar", values(t, out), want, elemTol(dtype, want, scale))
		// Input untouched.
		closeTo(t, "input", values(t, x), data, func(int) float64 { return 0 })
	})
}

func TestScale(t *testing.T) {
	ctx := context.Background()
	forEachElemCase(t, func(t *testing.T, dtype DType, shape []int, kind string) {
		data := roundTo(dtype, randData(2, numel(shape), -2, 2))
		x := makeView(t, dtype, data, shape, kind)
		const s = -1.375
		out := must(t)(Scale(ctx, x, s))
		if !slices.Equal(out.Shape(), shape) || out.DType() != dtype || !out.IsContiguous() || out.Device() != CPU {
			t.Fatalf("bad output metadata %v", out)
		}
		want, scale := make([]float64, len(data)), make([]float64, len(data))
		for i, v := range data {
			want[i] = s * v
			scale[i] = math.Abs(want[i])
		}
		closeTo(t, "Scale", values(t, out), want, elemTol(dtype, want, scale))
		closeTo(t, "input", values(t, x), data, func(int) float64 { return 0 })
	})
	// Scale by 1 is a new tensor too (the backward helper returns x itself).
	x := must(t)(FromFloat64([]float64{1, 2}, 2))
	y := must(t)(Scale(ctx, x, 1))
	if y == x || y.buf == x.buf {
		t.Fatal("Scale(x, 1) returned x's storage; want a new tensor")
	}
}

func TestAxpby(t *testing.T) {
	ctx := context.Background()
	forEachElemCase(t, func(t *testing.T, dtype DType, shape []int, kind string) {
		n := numel(shape)
		xd := roundTo(dtype, randData(2, n, -2, 2))
		yd := roundTo(dtype, randData(3, n, -2, 2))
		kinds := kindsFor(shape)
		ykind := kinds[(slices.Index(kinds, kind)+1)%len(kinds)] // mix layouts
		x := makeView(t, dtype, xd, shape, kind)
		y := makeView(t, dtype, yd, shape, ykind)
		const a, b = 1.5, -0.75
		out := must(t)(Axpby(ctx, a, x, b, y))
		want, scale := make([]float64, n), make([]float64, n)
		for i := range want {
			want[i] = a*xd[i] + b*yd[i]
			scale[i] = math.Abs(a*xd[i]) + math.Abs(b*yd[i])
		}
		tol := elemTol(dtype, want, scale)
		closeTo(t, "Axpby", values(t, out), want, tol)

		// Property: Axpby(1, x, 0, y) == x exactly.
		id := must(t)(Axpby(ctx, 1, x, 0, y))
		closeTo(t, "Axpby(1,x,0,y)", values(t, id), xd, func(int) float64 { return 0 })
	})
}

func TestPolynomial(t *testing.T) {
	ctx := context.Background()
	forEachElemCase(t, func(t *testing.T, dtype DType, shape []int, kind string) {
		n := numel(shape)
		xd := roundTo(dtype, randData(4, n, -2, 2))
		x := makeView(t, dtype, xd, shape, kind)
		const a, b, c, d = 0.5, -1.25, 2, 0.375
		out := must(t)(Polynomial(ctx, x, a, b, c, d))
		want, scale := make([]float64, n), make([]float64, n)
		for i, v := range xd {
			want[i] = a*v*v*v + b*v*v + c*v + d
			scale[i] = math.Abs(a*v*v*v) + math.Abs(b*v*v) + math.Abs(c*v) + math.Abs(d)
		}
		closeTo(t, "Polynomial", values(t, out), want, elemTol(dtype, want, scale))

		// Property: Polynomial(x, 0, 0, 1, 0) == x exactly.
		id := must(t)(Polynomial(ctx, x, 0, 0, 1, 0))
		closeTo(t, "Polynomial(x,0,0,1,0)", values(t, id), xd, func(int) float64 { return 0 })
	})
}

func TestPolynomialBackward(t *testing.T) {
	ctx := context.Background()
	forEachElemCase(t, func(t *testing.T, dtype DType, shape []int, kind string) {
		n := numel(shape)
		xd := roundTo(dtype, randData(5, n, -2, 2))
		gd := roundTo(dtype, randData(6, n, -1, 1))
		x := makeView(t, dtype, xd, shape, kind)
		g := makeView(t, dtype, gd, shape, kKindOther(shape, kind))
		const a, b, c = 0.5, -1.25, 2
		out := must(t)(polynomialBackward(ctx, g, x, a, b, c))
		want, scale := make([]float64, n), make([]float64, n)
		for i, v := range xd {
			want[i] = gd[i] * (3*a*v*v + 2*b*v + c)
			scale[i] = math.Abs(gd[i]) * (math.Abs(3*a*v*v) + math.Abs(2*b*v) + math.Abs(c))
		}
		closeTo(t, "PolynomialBackward", values(t, out), want, elemTol(dtype, want, scale))
	})
}

// kKindOther picks a different layout than kind for a second operand.
func kKindOther(shape []int, kind string) string {
	kinds := kindsFor(shape)
	return kinds[(slices.Index(kinds, kind)+2)%len(kinds)]
}

func TestNorm(t *testing.T) {
	ctx := context.Background()
	forEachElemCase(t, func(t *testing.T, dtype DType, shape []int, kind string) {
		xd := roundTo(dtype, randData(7, numel(shape), -2, 2))
		x := makeView(t, dtype, xd, shape, kind)
		out := must(t)(Norm(ctx, x))
		if out.Dim() != 0 || out.Numel() != 1 || out.DType() != dtype {
			t.Fatalf("Norm output %v, want 0-d %v", out, dtype)
		}
		var s float64
		for _, v := range xd {
			s += v * v
		}
		want := math.Sqrt(s)
		got, err := out.Item()
		if err != nil {
			t.Fatal(err)
		}
		// Float64 accumulation: relative error ~1e-12 in float64, one
		// float32 rounding (6e-8) for float32; a float32 accumulator would
		// be off by ~1e-5 at 2^20 elements.
		// The 16-bit dtypes: accumulated in float64 as well, so the one
		// rounding of the result (2u: 1e-3 float16, 8e-3 bfloat16), not a
		// sqrt(n) growth of an accumulator's error.
		rel := 1e-12
		switch dtype {
		case Float32:
			rel = 1e-6
		case Float16, BFloat16:
			rel = 2 * unitRoundoff(dtype)
		}
		if math.Abs(got-want) > rel*want {
			t.Fatalf("Norm = %.17g, want %.17g (rel %.3g > %g)", got, want, math.Abs(got-want)/want, rel)
		}
	})
}

// TestNormChunkingIsDeterministic checks that the result does not depend on
// how many goroutines the kernel uses.
func TestNormDeterministic(t *testing.T) {
	ctx := context.Background()
	x := fromData(t, Float32, randData(8, 1<<17+5, -1, 1))
	a := must(t)(Norm(ctx, x))
	for range 3 {
		b := must(t)(Norm(ctx, x))
		if va, vb := values(t, a)[0], values(t, b)[0]; va != vb {
			t.Fatalf("Norm not deterministic: %v vs %v", va, vb)
		}
	}
}

func TestContiguousAndViews(t *testing.T) {
	ctx := context.Background()
	forEachElemCase(t, func(t *testing.T, dtype DType, shape []int, kind string) {
		data := roundTo(dtype, randData(9, numel(shape), -2, 2))
		x := makeView(t, dtype, data, shape, kind)
		c := must(t)(x.Contiguous(ctx))
		if !c.IsContiguous() {
			t.Fatal("Contiguous returned a non-contiguous tensor")
		}
		if x.IsContiguous() != (c == x) {
			t.Fatalf("Contiguous should return x itself exactly when x is contiguous")
		}
		closeTo(t, "Contiguous", values(t, c), data, func(int) float64 { return 0 })
		f32, err := x.Float32s()
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range f32 { // exact: data holds values of dtype
			if v != float32(data[i]) {
				t.Fatalf("Float32s[%d] = %v, want %v", i, v, float32(data[i]))
			}
		}
		// Reshape to 1-D keeps order; it views contiguous tensors and
		// refuses the others, which Contiguous makes viewable.
		flat, err := x.Reshape(-1)
		if _, viewable := viewStrides(x.shape, x.strides, []int{x.Numel()}); viewable != (err == nil) {
			t.Fatalf("Reshape(-1) of a tensor with strides %v: %v", x.Strides(), err)
		}
		if err != nil {
			if !errors.Is(err, ErrShape) || !strings.Contains(err.Error(), "call Contiguous(ctx) first") {
				t.Fatalf("Reshape(-1) of a tensor with strides %v: %v, want ErrShape naming Contiguous", x.Strides(), err)
			}
			flat = must(t)(c.Reshape(-1))
		}
		closeTo(t, "Reshape(-1)", values(t, flat), data, func(int) float64 { return 0 })
	})
}
