package ops

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
	"github.com/rules-cuda-go/rules_cuda_go/ops/internal/testkit"
)

// ---------------------------------------------------------------------------
// A fake "cuda" backend keeping device memory in host slices, so tests can
// create tensors on another device without a GPU. It is registered once
// for the whole test binary (examples included).

type fakeStorage struct {
	dtype DType
	f32   []float32
	f64   []float64
	f16   []half.Float16
	bf16  []half.BFloat16
	freed atomic.Bool
	queue string // the fake stream Alloc put it on ("" by default)
}

func (s *fakeStorage) DType() DType { return s.dtype }
func (s *fakeStorage) Len() int     { return len(s.f32) + len(s.f64) + len(s.f16) + len(s.bf16) }

type fakeBackend struct {
	allocs, frees atomic.Int64

	mu     sync.Mutex
	orders []string // "in-queue->out-queue" for every Order call
}

var fakeCUDA = &fakeBackend{}

func init() {
	RegisterBackend(fakeCUDA)
	// AddScalar gets a fake CUDA kernel that indexes through strides the
	// way a real device kernel would; other ops have none (ErrNoKernel).
	Builtin.AddScalar.RegisterKernel(DeviceCUDA, fakeAddScalar)
	Builtin.Polynomial.RegisterKernel(DeviceCUDA, fakePolynomial)
}

func (b *fakeBackend) Type() DeviceType { return DeviceCUDA }
func (b *fakeBackend) Name() string     { return "fakecuda" }
func (b *fakeBackend) alloc(d Device, dtype DType, n int) (Storage, error) {
	if d.Index != 0 {
		return nil, fmt.Errorf("fake device %v does not exist", d)
	}
	b.allocs.Add(1)
	s := &fakeStorage{dtype: dtype}
	switch dtype {
	case Float32:
		s.f32 = make([]float32, n)
	case Float16:
		s.f16 = make([]half.Float16, n)
	case BFloat16:
		s.bf16 = make([]half.BFloat16, n)
	default:
		s.f64 = make([]float64, n)
	}
	return s, nil
}
func (b *fakeBackend) Free(s Storage) error {
	if s.(*fakeStorage).freed.Swap(true) {
		panic("fake backend: double free")
	}
	b.frees.Add(1)
	return nil
}
func (b *fakeBackend) CopyFromHost(dst Storage, dstOff int, src *CPUStorage, srcOff, n int) error {
	d := dst.(*fakeStorage)
	switch d.dtype {
	case Float32:
		copy(d.f32[dstOff:dstOff+n], src.Float32()[srcOff:srcOff+n])
	case Float16:
		copy(d.f16[dstOff:dstOff+n], src.Float16()[srcOff:srcOff+n])
	case BFloat16:
		copy(d.bf16[dstOff:dstOff+n], src.BFloat16()[srcOff:srcOff+n])
	default:
		copy(d.f64[dstOff:dstOff+n], src.Float64()[srcOff:srcOff+n])
	}
	return nil
}
func (b *fakeBackend) CopyToHost(dst *CPUStorage, dstOff int, src Storage, srcOff, n int) error {
	s := src.(*fakeStorage)
	switch s.dtype {
	case Float32:
		copy(dst.Float32()[dstOff:dstOff+n], s.f32[srcOff:srcOff+n])
	case Float16:
		copy(dst.Float16()[dstOff:dstOff+n], s.f16[srcOff:srcOff+n])
	case BFloat16:
		copy(dst.BFloat16()[dstOff:dstOff+n], s.bf16[srcOff:srcOff+n])
	default:
		copy(dst.Float64()[dstOff:dstOff+n], s.f64[srcOff:srcOff+n])
	}
	return nil
}
func (b *fakeBackend) Synchronize(context.Context, Device) error { return nil }

// fakeQueueKey is the context key of the fake backend's "stream".
type fakeQueueKey struct{}

// Alloc allocates for the queue named in ctx, which the storage remembers.
func (b *fakeBackend) Alloc(ctx context.Context, d Device, dtype DType, n int) (Storage, error) {
	st, err := b.alloc(d, dtype, n)
	if err != nil {
		return nil, err
	}
	q, _ := ctx.Value(fakeQueueKey{}).(string)
	if q == "fail" {
		return nil, fmt.Errorf("fake queue %q refuses allocations", q)
	}
	st.(*fakeStorage).queue = q
	return st, nil
}

// Order records which queue waits for which.
func (b *fakeBackend) Order(in, out Storage) error {
	i, o := in.(*fakeStorage), out.(*fakeStorage)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.orders = append(b.orders, i.queue+"->"+o.queue)
	return nil
}

// takeOrders returns and clears the recorded Order calls.
func (b *fakeBackend) takeOrders() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	o := b.orders
	b.orders = nil
	return o
}

// fakeElementwise applies f to every element of in[0] (through its strides)
// into out, using only the exported Tensor API, as a device kernel would.
func fakeElementwise(out *Tensor, x *Tensor, f func(float64) float64) error {
	xs, ok := x.Storage().(*fakeStorage)
	os, ok2 := out.Storage().(*fakeStorage)
	if !ok || !ok2 {
		return fmt.Errorf("not fake storage")
	}
	shape, strides := x.Shape(), x.Strides()
	idx := make([]int, len(shape))
	for i := range out.Numel() {
		o := x.Offset()
		for d := range idx {
			o += idx[d] * strides[d]
		}
		switch xs.dtype {
		case Float32:
			os.f32[i] = float32(f(float64(xs.f32[o])))
		case Float16:
			os.f16[i] = half.Float16From(float32(f(float64(xs.f16[o].Float32()))))
		case BFloat16:
			os.bf16[i] = half.BFloat16From(float32(f(float64(xs.bf16[o].Float32()))))
		default:
			os.f64[i] = f(xs.f64[o])
		}
		for d := len(idx) - 1; d >= 0; d-- {
			if idx[d]++; idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return nil
}

func fakeAddScalar(ctx context.Context, out *Tensor, in []*Tensor, sc Args) error {
	return fakeElementwise(out, in[0], func(v float64) float64 { return v + sc.Floats[0] })
}

// polyGate, when non-nil, blocks the fake Polynomial kernel until closed
// (used to test Free during a running kernel).
var polyGate struct {
	sync.Mutex
	started chan struct{}
	release chan struct{}
}

func fakePolynomial(ctx context.Context, out *Tensor, in []*Tensor, sc Args) error {
	polyGate.Lock()
	started, release := polyGate.started, polyGate.release
	polyGate.Unlock()
	if started != nil {
		close(started)
		<-release
	}
	a, b, c, d := sc.Floats[0], sc.Floats[1], sc.Floats[2], sc.Floats[3]
	return fakeElementwise(out, in[0], func(v float64) float64 { return ((a*v+b)*v+c)*v + d })
}

// ---------------------------------------------------------------------------
// Helpers.

// must returns a function that fails the test on error.
func must(tb testing.TB) func(*Tensor, error) *Tensor {
	return func(t *Tensor, err error) *Tensor {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		return t
	}
}

func values(tb testing.TB, t *Tensor) []float64 {
	tb.Helper()
	v, err := t.Float64s()
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// randData returns n deterministic values uniform in [lo, hi).
func randData(seed uint64, n int, lo, hi float64) []float64 {
	r := rand.New(rand.NewPCG(seed, 42))
	d := make([]float64, n)
	for i := range d {
		d[i] = lo + (hi-lo)*r.Float64()
	}
	return d
}

// roundTo rounds data to dtype's precision (returned as float64).
func roundTo(dtype DType, data []float64) []float64 {
	out := slices.Clone(data)
	for i, v := range out {
		switch dtype {
		case Float32:
			out[i] = float64(float32(v))
		case Float16:
			out[i] = float64(half.Float16From(float32(v)).Float32())
		case BFloat16:
			out[i] = float64(half.BFloat16From(float32(v)).Float32())
		}
	}
	return out
}

// fromData makes a contiguous CPU tensor of dtype from float64 data.
func fromData(tb testing.TB, dtype DType, data []float64, shape ...int) *Tensor {
	tb.Helper()
	if shape == nil {
		shape = []int{len(data)}
	}
	if dtype == Float64 {
		return must(tb)(fromFloat64("test", data, shape))
	}
	f := make([]float32, len(data))
	for i, v := range data {
		f[i] = float32(v)
	}
	return must(tb)(FromFloat32As(dtype, f, shape...))
}

// Layout kinds for makeView: the layouts of ops/internal/testkit (ops/optest's).
const (
	kContig     = string(testkit.Contiguous)
	kOffset     = string(testkit.Offset)     // contiguous with a storage offset
	kStrided    = string(testkit.Strided)    // every other element of the storage
	kTransposed = string(testkit.Transposed) // last two dims transposed (rank >= 2)
	kNarrowed   = string(testkit.Narrowed)   // narrowed along the last dim (rank >= 2)
)

// makeView returns a tensor of the given logical shape and values whose
// memory layout is given by kind (testkit.View; unused storage elements are
// NaN); transposed and narrowed fall back to strided below rank 2.
func makeView(tb testing.TB, dtype DType, data []float64, shape []int, kind string) *Tensor {
	tb.Helper()
	if len(shape) < 2 && (kind == kTransposed || kind == kNarrowed) {
		kind = kStrided
	}
	v, err := testkit.View(data, shape, testkit.Layout(kind), func(base []float64, shape []int) (*Tensor, error) {
		return fromData(tb, dtype, base, shape...), nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	if kind == kStrided && len(data) > 1 && v.IsContiguous() {
		tb.Fatalf("strided view of %v is contiguous", shape)
	}
	return v
}

// kindsFor returns the layouts applicable to a shape.
func kindsFor(shape []int) []string {
	var k []string
	for _, l := range testkit.Layouts(shape) {
		k = append(k, string(l))
	}
	return k
}

// closeTo checks |got-want| <= tol(i) element by element.
func closeTo(tb testing.TB, what string, got, want []float64, tol func(i int) float64) {
	tb.Helper()
	if err := testkit.CompareEach(got, want, tol); err != nil {
		tb.Fatalf("%s: %v", what, err)
	}
}

// unitRoundoff returns the unit roundoff of dtype (the tolerance table's):
// the largest relative error of one rounding to nearest (2^-p for a p-bit
// significand): float16 2^-11 ≈ 4.9e-4, bfloat16 2^-8 ≈ 3.9e-3.
func unitRoundoff(dtype DType) float64 { return testkit.For(dtype).UnitRoundoff }

// computeRoundoff is the unit roundoff of the type kernels compute in for
// dtype: float32 for the 16-bit dtypes (they load as float32, compute in
// float32 or wider and round once when storing), else the dtype's own.
func computeRoundoff(dtype DType) float64 {
	if dtype.isHalf() {
		return 0x1p-24
	}
	return unitRoundoff(dtype)
}

// tiny is the absolute error of one rounding below dtype's normal range:
// half the spacing of its subnormals (float16's are 2^-24 apart; the others'
// are below 1e-37, so their relative bounds hold for the values tested).
func tiny(dtype DType) float64 {
	if dtype == Float16 {
		return 0x1p-25
	}
	return 0
}

// dtypes are all dtypes: every op and backward is tested on each. Results
// on the 16-bit dtypes are compared with a float64 reference on the same
// (rounded) inputs; since they compute in float32 or wider and round once,
// the bounds are the float32/float64 ones with the dtype's unit roundoff:
// 2u|want| (u = 2^-11 for float16, about 1e-3 relative; 2^-8 for bfloat16,
// about 8e-3 relative) plus tiny(dtype) for subnormal results.
var dtypes = []DType{Float32, Float64, Float16, BFloat16}

// sizes for elementwise ops and Norm.
func elemSizes() []int {
	s := []int{0, 1, 7, 1023, 1<<20 + 3}
	if testing.Short() {
		s = s[:4]
	}
	return s
}

// elemShapes are multi-dimensional shapes for transposed/narrowed layouts.
var elemShapes = [][]int{{0, 5}, {1, 1}, {7, 5}, {33, 65}, {257, 129}, {4, 5, 6}}

func sqrt(v float64) float64 { return math.Sqrt(v) }
