package ops

import (
	"runtime"
	"sync"

	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
	"github.com/rules-cuda-go/rules_cuda_go/ops/internal/dims"
)

// float is the set of element types CPU kernels that compute are generic
// over; the 16-bit dtypes reach them widened to float32 (byDType).
type float interface{ float32 | float64 }

// elem is the set of all element types, for kernels that only move
// elements (copies, scatters).
type elem interface {
	float32 | float64 | half.Float16 | half.BFloat16 | int32
}

// cpuData returns the host slice backing a live CPU tensor; T must be the
// Go type of the tensor's dtype.
func cpuData[T elem](t *Tensor) []T {
	s := t.cpu()
	var z T
	switch any(z).(type) {
	case float32:
		return any(s.f32).([]T)
	case half.Float16:
		return any(s.f16).([]T)
	case half.BFloat16:
		return any(s.bf16).([]T)
	case int32:
		return any(s.i32).([]T)
	}
	return any(s.f64).([]T)
}

// grain is the smallest number of elements worth a goroutine.
const grain = 1 << 15

// parallelFor splits [0, n) into at most GOMAXPROCS contiguous chunks of at
// least minChunk items and runs fn on them concurrently; small ranges run
// serially on the calling goroutine.
func parallelFor(n, minChunk int, fn func(lo, hi int)) {
	if n <= 0 {
		return
	}
	w := runtime.GOMAXPROCS(0)
	if c := n / max(minChunk, 1); c < w {
		w = c
	}
	if w <= 1 {
		fn(0, n)
		return
	}
	chunk := (n + w - 1) / w
	var wg sync.WaitGroup
	for lo := chunk; lo < n; lo += chunk {
		wg.Add(1)
		go func(lo int) {
			defer wg.Done()
			fn(lo, min(lo+chunk, n))
		}(lo)
	}
	fn(0, chunk)
	wg.Wait()
}

// layout iterates a logical shape over several strided operands in
// row-major order, with the shape's dimensions merged by dims.AtLeast1 (a
// contiguous operand set becomes a single row).
type layout struct {
	shape   []int   // coalesced shape, rank >= 1
	strides [][]int // strides[op][dim]
	base    []int   // base offset of each operand
	inner   []int   // innermost stride of each operand
}

func newLayout(shape []int, base []int, strides ...[]int) *layout {
	l := &layout{base: base}
	l.shape, l.strides = dims.AtLeast1(shape, strides...)
	l.inner = make([]int, len(strides))
	for op := range strides {
		l.inner[op] = l.strides[op][len(l.shape)-1]
	}
	return l
}

// rows calls fn(offsets, n) for each run of n consecutive elements along
// the innermost dimension within the logical index range [lo, hi);
// offsets[op] is the storage index of the run's first element in operand op
// and successive elements are l.inner[op] apart. offsets is reused.
func (l *layout) rows(lo, hi int, fn func(off []int, n int)) {
	if lo >= hi {
		return
	}
	r := len(l.shape)
	coords := make([]int, r)
	rem := lo
	for d := r - 1; d >= 0; d-- {
		coords[d] = rem % l.shape[d]
		rem /= l.shape[d]
	}
	off := make([]int, len(l.base))
	inner := l.shape[r-1]
	for idx := lo; idx < hi; {
		for op, st := range l.strides {
			o := l.base[op]
			for d, c := range coords {
				o += c * st[d]
			}
			off[op] = o
		}
		n := min(inner-coords[r-1], hi-idx)
		fn(off, n)
		idx += n
		coords[r-1] += n
		for d := r - 1; d > 0 && coords[d] >= l.shape[d]; d-- {
			coords[d] = 0
			coords[d-1]++
		}
	}
}
