package cuda_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
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

// devicePtr returns the device address of t's first element, from
// NewLaunch on t's own stream (which orders nothing and records no use).
func devicePtr(tb testing.TB, t *ops.Tensor) uintptr {
	tb.Helper()
	s, err := cuda.StreamOf(t)
	if err != nil {
		tb.Fatal(err)
	}
	l, err := cuda.NewLaunch(cuda.WithStream(context.Background(), s), t)
	if err != nil {
		tb.Fatal(err)
	}
	return l.Ptr[0]
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

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

func isHalf(d ops.DType) bool { return d == ops.Float16 || d == ops.BFloat16 }

// Memory layouts of test inputs (ops/optest's): unused storage elements
// are NaN, so a kernel reading them fails the comparison.
const (
	kContig     = optest.Contiguous
	kOffset     = optest.Offset     // contiguous at storage offset 3 (not 16-byte aligned)
	kStrided    = optest.Strided    // every other element of a buffer
	kTransposed = optest.Transposed // last two dims transposed (rank >= 2)
	kNarrowed   = optest.Narrowed   // narrowed along the last dim (rank >= 2)
)

func kindsFor(shape []int) []optest.Layout { return optest.Layouts(shape) }

// view is a tensor of given logical values and layout, made on the CPU or
// the GPU by optest.View.
type view struct {
	dtype ops.DType
	data  []float64
	shape []int
	kind  optest.Layout
}

func makeView(tb testing.TB, dtype ops.DType, data []float64, shape []int, kind optest.Layout) view {
	tb.Helper()
	return view{dtype, data, shape, kind}
}

// cpu returns the view on the CPU.
func (v view) cpu(tb testing.TB) *ops.Tensor {
	tb.Helper()
	return must(tb)(optest.View(context.Background(), v.dtype, v.data, v.shape, v.kind, ops.CPU))
}

// gpu returns the same view on the GPU.
func (v view) gpu(tb testing.TB) *ops.Tensor {
	tb.Helper()
	return must(tb)(optest.View(context.Background(), v.dtype, v.data, v.shape, v.kind, dev))
}

// compare checks |got-want| <= rtol*|want| + atol elementwise (NaN equals
// NaN only where want is NaN).
func compare(tb testing.TB, what string, got, want []float64, rtol, atol float64) {
	tb.Helper()
	if err := optest.Compare(got, want, rtol, atol); err != nil {
		tb.Fatalf("%s: %v", what, err)
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
