package cuda_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

var large = flag.Bool("cuda.large", false, "also run TestLargeTensors (about 9 GB of host and 17 GB of device memory: 64-bit indexing)")

var dev = ops.CUDA(0)

// requireGPU skips the test, saying why, when no CUDA device can be used.
func requireGPU(tb testing.TB) {
	tb.Helper()
	if ok, err := cuda.Available(); !ok {
		tb.Skipf("skipping the GPU test: no usable CUDA device (%v)", err)
	}
}

func must(tb testing.TB) func(*ops.Tensor, error) *ops.Tensor {
	return func(t *ops.Tensor, err error) *ops.Tensor {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		return t
	}
}

func values(tb testing.TB, t *ops.Tensor) []float64 {
	tb.Helper()
	v, err := t.Float64s()
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// randData returns n deterministic values uniform in [lo, hi).
func randData(seed uint64, n int, lo, hi float64) []float64 {
	r := rand.New(rand.NewPCG(seed, 7))
	d := make([]float64, n)
	for i := range d {
		d[i] = lo + (hi-lo)*r.Float64()
	}
	return d
}

// fromData makes a contiguous CPU tensor of dtype from data.
func fromData(tb testing.TB, dtype ops.DType, data []float64, shape ...int) *ops.Tensor {
	tb.Helper()
	if shape == nil {
		shape = []int{len(data)}
	}
	if dtype == ops.Float64 {
		return must(tb)(ops.FromFloat64(data, shape...))
	}
	f := make([]float32, len(data))
	for i, v := range data {
		f[i] = float32(v)
	}
	return must(tb)(ops.FromFloat32As(dtype, f, shape...))
}

// dtypes are all dtypes; every kernel is checked against the CPU on each.
var dtypes = []ops.DType{ops.Float32, ops.Float64, ops.Float16, ops.BFloat16}

// halfTol is the tolerance of a 16-bit result of the GPU against the CPU:
// both compute in float32 or wider from the same inputs and round once, so
// they differ by at most one rounding of the result in each direction (2u
// of it: float16 2^-10 ≈ 1e-3, bfloat16 2^-7 ≈ 8e-3), plus float32
// compute differences (2^-24 of operands up to ~10 where results cancel)
// and, for float16, the spacing of its subnormals (2^-24).
func halfTol(dtype ops.DType) (rtol, atol float64) {
	u := 0x1p-11
	if dtype == ops.BFloat16 {
		u = 0x1p-8
	}
	return 2 * u, 1e-6
}

func isHalf(d ops.DType) bool { return d == ops.Float16 || d == ops.BFloat16 }

// Memory layouts of test inputs.
const (
	kContig     = "contiguous"
	kOffset     = "offset"     // contiguous at storage offset 3 (not 16-byte aligned)
	kStrided    = "strided"    // every other element of a buffer
	kTransposed = "transposed" // last two dims transposed (rank >= 2)
	kNarrowed   = "narrowed"   // narrowed along the last dim (rank >= 2)
)

func kindsFor(shape []int) []string {
	k := []string{kContig, kOffset, kStrided}
	if len(shape) >= 2 {
		k = append(k, kTransposed, kNarrowed)
	}
	return k
}

// view is a tensor of given logical values and layout kind, as a contiguous
// CPU base tensor plus the view ops applied to it, so that the same view
// can be made of a copy of the base on the GPU. Unused base elements are
// NaN, so a kernel reading them fails the comparison.
type view struct {
	base  *ops.Tensor
	apply func(*ops.Tensor) (*ops.Tensor, error)
}

func makeView(tb testing.TB, dtype ops.DType, data []float64, shape []int, kind string) view {
	tb.Helper()
	n := len(data)
	nan := math.NaN()
	switch kind {
	case kContig:
		return view{fromData(tb, dtype, data, shape...), func(t *ops.Tensor) (*ops.Tensor, error) { return t, nil }}
	case kOffset:
		big := append([]float64{nan, nan, nan}, data...)
		return view{fromData(tb, dtype, big), func(t *ops.Tensor) (*ops.Tensor, error) {
			v, err := t.Narrow(0, 3, n)
			if err != nil {
				return nil, err
			}
			return v.Reshape(shape...)
		}}
	case kStrided:
		big := make([]float64, 2*n)
		for i, v := range data {
			big[2*i], big[2*i+1] = v, nan
		}
		return view{fromData(tb, dtype, big, n, 2), func(t *ops.Tensor) (*ops.Tensor, error) {
			v, err := t.Narrow(1, 0, 1)
			if err != nil {
				return nil, err
			}
			return v.Reshape(shape...)
		}}
	case kTransposed:
		r := len(shape)
		p, q := shape[r-2], shape[r-1]
		td := make([]float64, n)
		if p*q > 0 {
			for o := range n / (p * q) {
				for i := range p {
					for j := range q {
						td[o*p*q+j*p+i] = data[o*p*q+i*q+j]
					}
				}
			}
		}
		ts := slices.Clone(shape)
		ts[r-2], ts[r-1] = q, p
		return view{fromData(tb, dtype, td, ts...), func(t *ops.Tensor) (*ops.Tensor, error) { return t.Transpose(r-2, r-1) }}
	case kNarrowed:
		r := len(shape)
		q := shape[r-1]
		rows := 1
		for _, s := range shape[:r-1] {
			rows *= s
		}
		big := make([]float64, rows*(q+3))
		for i := range big {
			big[i] = nan
		}
		for i := range rows {
			copy(big[i*(q+3)+1:], data[i*q:(i+1)*q])
		}
		bs := slices.Clone(shape)
		bs[r-1] = q + 3
		return view{fromData(tb, dtype, big, bs...), func(t *ops.Tensor) (*ops.Tensor, error) { return t.Narrow(r-1, 1, q) }}
	}
	tb.Fatalf("unknown kind %q", kind)
	return view{}
}

// cpu returns the view of the CPU base.
func (v view) cpu(tb testing.TB) *ops.Tensor {
	tb.Helper()
	return must(tb)(v.apply(v.base))
}

// gpu copies the base to the GPU and returns the same view of it.
func (v view) gpu(tb testing.TB) *ops.Tensor {
	tb.Helper()
	return must(tb)(v.apply(must(tb)(v.base.To(dev))))
}

// compare checks |got-want| <= rtol*|want| + atol elementwise (NaN equals
// NaN only where want is NaN).
func compare(tb testing.TB, what string, got, want []float64, rtol, atol float64) {
	tb.Helper()
	if len(got) != len(want) {
		tb.Fatalf("%s: got %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if math.IsNaN(want[i]) && math.IsNaN(got[i]) {
			continue
		}
		if d := math.Abs(got[i] - want[i]); !(d <= rtol*math.Abs(want[i])+atol) {
			tb.Fatalf("%s: element %d of %d: got %.17g, want %.17g (|diff| %.3g > %.3g*|want| + %.3g)", what, i, len(got), got[i], want[i], d, rtol, atol)
		}
	}
}

// checkOut checks that a result is a contiguous tensor on d with the shape
// and dtype wanted.
func checkOut(tb testing.TB, what string, t *ops.Tensor, d ops.Device, dtype ops.DType, shape []int) {
	tb.Helper()
	if t.Device() != d || t.DType() != dtype || !slices.Equal(t.Shape(), shape) || !t.IsContiguous() {
		tb.Fatalf("%s: result %v (contiguous %v), want shape %v, %v on %v, contiguous", what, t, t.IsContiguous(), shape, dtype, d)
	}
}

func name(parts ...any) string { return fmt.Sprint(parts...) }
