package ops

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

var halfDTypes = []DType{Float16, BFloat16}

func TestHalfDTypeMetadata(t *testing.T) {
	for _, c := range []struct {
		d    DType
		name string
		size int
	}{{Float16, "float16", 2}, {BFloat16, "bfloat16", 2}} {
		if c.d.String() != c.name || c.d.Size() != c.size || !c.d.valid() {
			t.Errorf("%v: String %q Size %d valid %v", c.d, c.d.String(), c.d.Size(), c.d.valid())
		}
		x := must(t)(Zeros(c.d, 2, 3))
		if got := x.String(); got != "Tensor(shape=[2 3], dtype="+c.name+", device=cpu)" {
			t.Errorf("String() = %q", got)
		}
		if x.Storage().Len() != 6 {
			t.Errorf("%v storage Len %d", c.d, x.Storage().Len())
		}
	}
	if _, err := Zeros(DType(6), 1); !errors.Is(err, ErrDType) || !strings.Contains(err.Error(), "bfloat16 or int32") {
		t.Errorf("Zeros(DType(6)): %v", err)
	}
}

func TestHalfConstructorsAndAccessors(t *testing.T) {
	data := []float32{0, 1, -2.5, 1.0 / 3, 65504, 70000, 1e-7, float32(math.Inf(-1))}
	for _, d := range halfDTypes {
		x := must(t)(FromFloat32As(d, data, 2, 4))
		got, err := x.Float32s()
		if err != nil {
			t.Fatal(err)
		}
		want := roundTo(d, func() []float64 {
			v := make([]float64, len(data))
			for i, f := range data {
				v[i] = float64(f)
			}
			return v
		}())
		for i := range got {
			if float64(got[i]) != want[i] {
				t.Errorf("%v: Float32s[%d] = %v, want %v", d, i, got[i], want[i])
			}
		}
		// The raw accessors and constructors round-trip bit patterns.
		switch d {
		case Float16:
			h := must2[[]half.Float16](t)(x.Float16s())
			if h[5] != 0x7c00 || h[1] != 0x3c00 { // 70000 overflows to +Inf; 1.0
				t.Errorf("Float16s = %v", h)
			}
			y := must(t)(FromFloat16(h, 2, 4))
			if !equalValues(t, x, y) {
				t.Error("FromFloat16(Float16s) differs")
			}
		case BFloat16:
			h := must2[[]half.BFloat16](t)(x.BFloat16s())
			if h[1] != 0x3f80 {
				t.Errorf("BFloat16s = %v", h)
			}
			y := must(t)(FromBFloat16(h, 2, 4))
			if !equalValues(t, x, y) {
				t.Error("FromBFloat16(BFloat16s) differs")
			}
		}
		f := must(t)(Full(1.0/3, d, 3))
		if v := values(t, f); v[0] != roundTo(d, []float64{1.0 / 3})[0] || v[2] != v[0] {
			t.Errorf("Full(1/3, %v) = %v", d, v)
		}
		r := must(t)(Rand(7, d, 1<<16))
		for i, v := range values(t, r) {
			if !(v >= 0 && v < 1) {
				t.Fatalf("Rand(%v)[%d] = %v, outside [0, 1)", d, i, v)
			}
		}
		if _, err := FromFloat32As(d, data, 3); !errors.Is(err, ErrShape) {
			t.Errorf("FromFloat32As with a bad shape: %v", err)
		}
	}
}

func must2[T any](tb testing.TB) func(T, error) T {
	return func(v T, err error) T {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		return v
	}
}

func equalValues(tb testing.TB, a, b *Tensor) bool {
	va, vb := values(tb, a), values(tb, b)
	if len(va) != len(vb) {
		return false
	}
	for i := range va {
		if va[i] != vb[i] && !(math.IsNaN(va[i]) && math.IsNaN(vb[i])) {
			return false
		}
	}
	return true
}

func TestAsType(t *testing.T) {
	ctx := context.Background()
	data := randData(40, 35, -3, 3)
	for _, from := range dtypes {
		for _, to := range dtypes {
			t.Run(fmt.Sprintf("%v->%v", from, to), func(t *testing.T) {
				src := roundTo(from, data)
				x := makeView(t, from, src, []int{5, 7}, kTransposed)
				y := must(t)(x.AsType(ctx, to))
				if y.DType() != to || y.Device() != CPU || (from == to) != (y == x) || (from != to && !y.IsContiguous()) {
					t.Fatalf("AsType: %v", y)
				}
				// Widening is exact; narrowing rounds once (float64 sources
				// through float32: within the target's rounding too).
				want := roundTo(to, src)
				closeTo(t, "AsType", values(t, y), want, func(i int) float64 { return 0 })
				// On another device (the fake backend) through host memory.
				d := must(t)(x.To(ctx, CUDA(0)))
				yd := must(t)(d.AsType(ctx, to))
				if yd.Device() != CUDA(0) || yd.DType() != to {
					t.Fatalf("AsType on device: %v", yd)
				}
				closeTo(t, "AsType on device", values(t, yd), want, func(i int) float64 { return 0 })
			})
		}
	}
	// The gradient flows back in the source dtype.
	x := leaf(t, 41, []int{4}, kContig)
	h := must(t)(x.AsType(ctx, BFloat16))
	if err := must(t)(Norm(ctx, h)).Backward(ctx); err != nil {
		t.Fatal(err)
	}
	if g := x.Grad(); g == nil || g.DType() != Float64 {
		t.Fatalf("grad through AsType: %v", g)
	}
}

func TestMixedDTypeError(t *testing.T) {
	ctx := context.Background()
	x := must(t)(Zeros(BFloat16, 3))
	y := must(t)(Zeros(Float32, 3))
	_, err := Axpby(ctx, 1, x, 1, y)
	const want = "ops.Axpby: y has dtype float32, expected bfloat16 (same as x); ops do not promote dtypes: convert one explicitly, e.g. y.AsType(ops.BFloat16)"
	if !errors.Is(err, ErrDType) || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

// TestHalfBackward runs every differentiable built-in op's backward on the
// 16-bit dtypes and compares the gradients with the same computation in
// float64 on the same (rounded) inputs. Each backward is one or two
// kernels computing in float32 or wider and rounding once per kernel, and
// the incoming gradient is rounded to the dtype, so the gradients are
// within a few roundings of the reference: 8u of the largest gradient
// (u = 2^-11 for float16, 2^-8 for bfloat16; about 4e-3 and 3e-2 of it),
// measured against the largest because gradients of sums can cancel.
func TestHalfBackward(t *testing.T) {
	ctx := context.Background()
	m := func(f func(ctx context.Context, in []*Tensor) (*Tensor, error)) func(ctx context.Context, in []*Tensor) (*Tensor, error) {
		return f
	}
	cases := []struct {
		name   string
		fn     func(ctx context.Context, in []*Tensor) (*Tensor, error)
		shapes [][]int
	}{
		{"AddScalar", m(func(ctx context.Context, in []*Tensor) (*Tensor, error) { return AddScalar(ctx, in[0], 0.5) }), [][]int{{7, 5}}},
		{"Axpby", m(func(ctx context.Context, in []*Tensor) (*Tensor, error) { return Axpby(ctx, 0.7, in[0], -1.3, in[1]) }), [][]int{{7, 5}, {7, 5}}},
		{"Norm", m(func(ctx context.Context, in []*Tensor) (*Tensor, error) { return Norm(ctx, in[0]) }), [][]int{{7, 5}}},
		{"Polynomial", m(func(ctx context.Context, in []*Tensor) (*Tensor, error) { return Polynomial(ctx, in[0], 0.5, -1, 2, 3) }), [][]int{{7, 5}}},
		{"RowSoftmax", m(func(ctx context.Context, in []*Tensor) (*Tensor, error) { return RowSoftmax(ctx, in[0]) }), [][]int{{7, 5}}},
		{"MatMul", m(func(ctx context.Context, in []*Tensor) (*Tensor, error) { return MatMul(ctx, in[0], in[1]) }), [][]int{{7, 5}, {5, 3}}},
		{"Narrow", m(func(ctx context.Context, in []*Tensor) (*Tensor, error) { return in[0].Narrow(1, 1, 3) }), [][]int{{7, 5}}},
		{"Contiguous", m(func(ctx context.Context, in []*Tensor) (*Tensor, error) {
			tr, err := in[0].Transpose(0, 1)
			if err != nil {
				return nil, err
			}
			return tr.Contiguous(ctx)
		}), [][]int{{7, 5}}},
	}
	for _, d := range halfDTypes {
		for _, c := range cases {
			for _, kind := range []string{kContig, kTransposed, kNarrowed} {
				t.Run(fmt.Sprintf("%v/%s/%s", d, c.name, kind), func(t *testing.T) {
					var hs, ws []*Tensor
					for i, s := range c.shapes {
						data := roundTo(d, randData(uint64(50+i), numel(s), -1, 1))
						h := makeView(t, d, data, s, kind).Detach()
						w := makeView(t, Float64, data, s, kind).Detach()
						for _, x := range []*Tensor{h, w} {
							if err := x.SetRequiresGrad(true); err != nil {
								t.Fatal(err)
							}
						}
						hs, ws = append(hs, h), append(ws, w)
					}
					yh := must(t)(c.fn(ctx, hs))
					yw := must(t)(c.fn(ctx, ws))
					gd := roundTo(d, randData(60, yh.Numel(), -1, 1))
					if err := yh.BackwardWithGrad(ctx, fromData(t, d, gd, yh.Shape()...)); err != nil {
						t.Fatal(err)
					}
					if err := yw.BackwardWithGrad(ctx, fromData(t, Float64, gd, yw.Shape()...)); err != nil {
						t.Fatal(err)
					}
					for i := range hs {
						gh, gw := hs[i].Grad(), ws[i].Grad()
						if gh == nil || gh.DType() != d {
							t.Fatalf("input %d: grad %v, want dtype %v", i, gh, d)
						}
						want := values(t, gw)
						var big float64
						for _, v := range want {
							big = max(big, math.Abs(v))
						}
						u := unitRoundoff(d)
						closeTo(t, fmt.Sprintf("grad %d", i), values(t, gh), want, func(int) float64 { return 8*u*big + tiny(d) })
					}
				})
			}
		}
	}
}

func TestGradCheckRefusesHalf(t *testing.T) {
	ctx := context.Background()
	x := must(t)(Zeros(Float16, 3))
	err := GradCheck(ctx, func(ctx context.Context, in []*Tensor) (*Tensor, error) { return Norm(ctx, in[0]) }, []*Tensor{x}, GradCheckOptions{})
	if !errors.Is(err, ErrDType) {
		t.Fatalf("GradCheck on float16: %v", err)
	}
}
