package cuda_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

// asTypeData returns n values: random ones of every magnitude the dtypes
// meet, with NaN, infinities, signed zeros, subnormals of each dtype and
// values that overflow the narrower dtypes mixed in.
func asTypeData(n int, seed uint64) []float64 {
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 65504, 65520, 70000,
		-1e-7, 3e-8, 1e-40, -1e-45, 3.4e38, 3.4028235e38, 1e39, -1e300, 1e-300, 1 + 1.0/2048, 1 + 3.0/4096,
		1.00390625, 1.005859375, 0.1, -1.0 / 3}
	r := randData(seed, n, -1, 1)
	for i := range r {
		switch {
		case i%5 == 0:
			r[i] = special[(i/5)%len(special)]
		case i%5 == 1:
			r[i] = r[i] * math.Pow(10, float64(i%80-40))
		default:
			r[i] *= 1000
		}
	}
	return r
}

// sameBits reports whether a and b (values of a tensor widened to float64,
// which is exact) are the same: equal bits, or both NaN.
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (a != a && b != b)
}

// TestAsTypeOnGPU checks the device conversion (csrc/convert.cu) of every
// ordered pair of dtypes against the CPU's, bit for bit, on every layout,
// odd and empty shapes and special values.
func TestAsTypeOnGPU(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	m := must(t)
	shapes := [][]int{{0}, {1}, {7}, {1023}, {0, 5}, {7, 5}, {33, 65}, {4, 5, 6}}
	for _, from := range dtypes {
		for _, to := range dtypes {
			if from == to {
				continue
			}
			for si, shape := range shapes {
				for _, kind := range kindsFor(shape) {
					what := fmt.Sprintf("%v->%v %v %s", from, to, shape, kind)
					v := makeView(t, from, asTypeData(numel(shape), uint64(si)), shape, kind)
					want := values(t, m(v.cpu(t).AsType(ctx, to)))
					gx := v.gpu(t)
					got := m(gx.AsType(ctx, to))
					checkOut(t, what, got, dev, to, shape)
					gv := values(t, got)
					bad := 0
					for i := range want {
						if !sameBits(gv[i], want[i]) {
							if bad < 3 {
								t.Errorf("%s: element %d: got %g, want %g", what, i, gv[i], want[i])
							}
							bad++
						}
					}
					if bad > 0 {
						t.Errorf("%s: %d of %d elements differ from the CPU", what, bad, len(want))
					}
					got.Free()
					gx.Free()
				}
			}
		}
	}
}

// TestAsTypeCaptured converts inside a CUDA graph: the conversion runs on
// the capture's stream, with no copy through host memory.
func TestAsTypeCaptured(t *testing.T) {
	requireGPU(t)
	m := must(t)
	s := newStream(t)
	data := randData(23, 1000, -4, 4)
	x := m(fromData(t, ops.Float32, data).To(context.Background(), dev))
	var out *ops.Tensor
	g, err := cuda.Capture(context.Background(), s, func(ctx context.Context) error {
		h, err := x.AsType(ctx, ops.BFloat16)
		if err != nil {
			return err
		}
		out, err = ops.AddScalar(ctx, h, 1)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := g.Replay(); err != nil {
		t.Fatal(err)
	}
	want := values(t, m(ops.AddScalar(context.Background(), m(fromData(t, ops.Float32, data).AsType(context.Background(), ops.BFloat16)), 1)))
	rtol, atol := optest.Tolerance(ops.BFloat16)
	compare(t, "AsType in a graph", values(t, out), want, rtol, atol)
}

// TestAsTypeGrad: the gradient through a device AsType comes back in the
// input's dtype, on the device.
func TestAsTypeGrad(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	m := must(t)
	data := randData(29, 300, -2, 2)
	x := m(fromData(t, ops.Float32, data).To(ctx, dev))
	if err := x.SetRequiresGrad(true); err != nil {
		t.Fatal(err)
	}
	y := m(x.AsType(ctx, ops.Float64))
	z := m(ops.Polynomial(ctx, y, 0, 1, 0, 0)) // y², so dz/dx = 2x
	ones := m(m(ops.Full(1, ops.Float64, 300)).To(ctx, dev))
	if err := z.BackwardWithGrad(ctx, ones); err != nil {
		t.Fatal(err)
	}
	g := x.Grad()
	if g == nil {
		t.Fatal("no gradient")
	}
	checkOut(t, "grad", g, dev, ops.Float32, []int{300})
	want := make([]float64, len(data))
	for i, v := range data {
		want[i] = 2 * float64(float32(v))
	}
	rtol, atol := optest.Tolerance(ops.Float32)
	compare(t, "d(x²)/dx through AsType", values(t, g), want, rtol, atol)
}
