package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"unsafe"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

// Pinned is a buffer of page-locked host memory (cudaHostAlloc), the host
// side of asynchronous copies: CopyToDeviceAsync and CopyToHostAsync queue
// a copy on a stream and return at once, so copies overlap with kernels
// on other streams (like torch's pin_memory() + non_blocking=True). The
// memory is outside Go's heap; Float32, Float64, Float16 and BFloat16 view
// it (the one of its dtype). Close it when
// done (it waits for the copies queued on it); a runtime cleanup does it
// for an unreachable buffer.
type Pinned struct {
	*pinnedMem
	cleanup runtime.Cleanup
}

type pinnedMem struct {
	p     unsafe.Pointer
	dtype ops.DType
	n     int

	mu     sync.Mutex
	closed bool
	copies map[int][]C.opscuda_event // events after the copies queued on it, by device
}

// NewPinned allocates page-locked host memory for n elements of dtype. It
// needs a CUDA device (the driver pins the memory).
func NewPinned(dtype ops.DType, n int) (*Pinned, error) {
	size := dtype.Size()
	if size == 0 {
		return nil, fmt.Errorf("cuda: NewPinned: dtype %v: %w", dtype, ops.ErrDType)
	}
	if n <= 0 || n > int(^uint(0)>>1)/size {
		return nil, fmt.Errorf("cuda: NewPinned: %d elements: %w", n, ops.ErrShape)
	}
	if _, err := DeviceCount(); err != nil {
		return nil, err
	}
	var p unsafe.Pointer
	if err := check(fmt.Sprintf("cudaHostAlloc of %d bytes", n*size), C.opscuda_host_alloc(C.ulonglong(n*size), &p)); err != nil {
		return nil, err
	}
	m := &pinnedMem{p: p, dtype: dtype, n: n, copies: map[int][]C.opscuda_event{}}
	b := &Pinned{pinnedMem: m}
	b.cleanup = runtime.AddCleanup(b, func(m *pinnedMem) { _ = m.close() }, m)
	return b, nil
}

// DType returns the element type.
func (b *Pinned) DType() ops.DType { return b.dtype }

// Len returns the number of elements.
func (b *Pinned) Len() int { return b.n }

// Float32 returns the buffer as a slice (nil unless its dtype is float32
// or after Close). Do not touch elements that a queued copy reads or
// writes until that copy has completed.
func (b *Pinned) Float32() []float32 {
	if b.dtype != ops.Float32 || b.isClosed() {
		return nil
	}
	return unsafe.Slice((*float32)(b.p), b.n)
}

// Float64 is Float32 for float64 buffers.
func (b *Pinned) Float64() []float64 {
	if b.dtype != ops.Float64 || b.isClosed() {
		return nil
	}
	return unsafe.Slice((*float64)(b.p), b.n)
}

// Float16 is Float32 for float16 buffers (the bit patterns of ops/half).
func (b *Pinned) Float16() []half.Float16 {
	if b.dtype != ops.Float16 || b.isClosed() {
		return nil
	}
	return unsafe.Slice((*half.Float16)(b.p), b.n)
}

// BFloat16 is Float32 for bfloat16 buffers (the bit patterns of ops/half).
func (b *Pinned) BFloat16() []half.BFloat16 {
	if b.dtype != ops.BFloat16 || b.isClosed() {
		return nil
	}
	return unsafe.Slice((*half.BFloat16)(b.p), b.n)
}

func (m *pinnedMem) isClosed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}

// Close waits for the copies queued on the buffer, then frees it. Closing
// twice is a no-op.
func (b *Pinned) Close() error {
	b.cleanup.Stop()
	return b.close()
}

func (m *pinnedMem) close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	copies := m.copies
	m.copies = nil
	m.mu.Unlock()
	var first error
	for dev, evs := range copies {
		if err := waitEvents(context.Background(), dev, evs); err != nil && first == nil {
			first = err
		}
		for _, e := range evs {
			putEvent(dev, e)
		}
	}
	if err := check("cudaFreeHost", C.opscuda_host_free(m.p)); err != nil && first == nil {
		first = err
	}
	return first
}

// queued records that a copy was queued on s (not being captured).
func (m *pinnedMem) queued(s *Stream) error {
	e, err := getEvent(s.device)
	if err != nil {
		return err
	}
	if err := check(fmt.Sprintf("recording an event on %v", s), C.opscuda_event_record(C.int(s.device), e, s.h)); err != nil {
		putEvent(s.device, e)
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed { // closed meanwhile: Close did not see this copy, so wait here
		err := waitEvents(context.Background(), s.device, []C.opscuda_event{e})
		putEvent(s.device, e)
		return err
	}
	evs := m.copies[s.device]
	// Drop the events of copies that have completed.
	kept := evs[:0]
	for _, x := range evs {
		if (fence{device: s.device, e: x}).Done() {
			putEvent(s.device, x)
		} else {
			kept = append(kept, x)
		}
	}
	m.copies[s.device] = append(kept, e)
	return nil
}

// asyncCopy checks t and b and returns t's storage and the stream ctx
// chooses for it.
func asyncCopy(ctx context.Context, op string, t *ops.Tensor, b *Pinned) (*storage, *Stream, error) {
	if ctx == nil {
		return nil, nil, fmt.Errorf("cuda: %s: context is nil: %w", op, ops.ErrArg)
	}
	if t == nil || b == nil || b.pinnedMem == nil {
		return nil, nil, fmt.Errorf("cuda: %s: nil tensor or buffer: %w", op, ops.ErrNil)
	}
	st, err := storageOf(t.Storage())
	if err != nil {
		return nil, nil, fmt.Errorf("cuda: %s: %w", op, err)
	}
	if !t.IsContiguous() {
		return nil, nil, fmt.Errorf("cuda: %s: the tensor is not contiguous: %w", op, ops.ErrShape)
	}
	if t.DType() != b.dtype {
		return nil, nil, fmt.Errorf("cuda: %s: tensor of %v, buffer of %v: %w", op, t.DType(), b.dtype, ops.ErrDType)
	}
	if t.Numel() > b.n {
		return nil, nil, fmt.Errorf("cuda: %s: %d elements do not fit a buffer of %d: %w", op, t.Numel(), b.n, ops.ErrShape)
	}
	if b.isClosed() {
		return nil, nil, fmt.Errorf("cuda: %s: %w", op, ErrClosed)
	}
	s := StreamFrom(ctx, st.device)
	if s.closed.Load() {
		return nil, nil, fmt.Errorf("cuda: %s on %v: %w", op, s, ErrClosed)
	}
	return st, s, nil
}

// CopyToDeviceAsync queues a copy of src's first dst.Numel() elements into
// the contiguous CUDA tensor dst on the stream ctx chooses and returns at
// once. Work on dst's own stream, and so every later op reading dst, runs
// after the copy. Inside Capture the copy becomes part of the graph (src
// must then outlive it).
func CopyToDeviceAsync(ctx context.Context, dst *ops.Tensor, src *Pinned) error {
	const op = "CopyToDeviceAsync"
	st, s, err := asyncCopy(ctx, op, dst, src)
	if err != nil || st.n == 0 || dst.Numel() == 0 {
		return err
	}
	if err := orderUse(st, s); err != nil {
		return err
	}
	bytes := dst.Numel() * st.dtype.Size()
	if code := C.opscuda_copy_async(C.int(st.device), s.touch(), st.at(dst.Offset()), src.p, C.ulonglong(bytes), 1); code != 0 {
		return check(fmt.Sprintf("%s of %d bytes on %v", op, bytes, s), code)
	}
	if s.capturing() != nil {
		return nil
	}
	// Later work on dst's stream (and everything ordered after it) sees the copy.
	if own := st.stream.effective(); own != s {
		if err := own.WaitStream(s); err != nil {
			return err
		}
	}
	return src.queued(s)
}

// CopyToHostAsync queues a copy of the contiguous CUDA tensor src into the
// first src.Numel() elements of dst on the stream ctx chooses, after the
// work that produced src, and returns at once: wait for it (Synchronize,
// Stream.Synchronize or an Event) before reading dst.
func CopyToHostAsync(ctx context.Context, dst *Pinned, src *ops.Tensor) error {
	const op = "CopyToHostAsync"
	st, s, err := asyncCopy(ctx, op, src, dst)
	if err != nil || st.n == 0 || src.Numel() == 0 {
		return err
	}
	if err := orderUse(st, s); err != nil {
		return err
	}
	bytes := src.Numel() * st.dtype.Size()
	if code := C.opscuda_copy_async(C.int(st.device), s.touch(), st.at(src.Offset()), dst.p, C.ulonglong(bytes), 0); code != 0 {
		return check(fmt.Sprintf("%s of %d bytes on %v", op, bytes, s), code)
	}
	if s.capturing() != nil {
		return nil
	}
	return dst.queued(s)
}
