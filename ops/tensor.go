package ops

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Tensor is an n-dimensional strided view of a Storage: element
// (i0, i1, ...) lives at Storage index Offset + i0*Strides[0] + i1*Strides[1]
// + .... Views created by Reshape, Transpose and Narrow share the storage
// of their base tensor. Tensors are immutable (ops return new tensors) and
// safe to use from many goroutines at once.
//
// A Tensor must be created by the constructors in this package; the zero
// Tensor is not usable.
type Tensor struct {
	shape   []int
	strides []int
	offset  int
	dtype   DType
	device  Device
	buf     *buffer

	requiresGrad atomic.Bool
	node         *node // autograd node that produced t; nil for leaves
	out          int   // which output of node t is

	gradMu sync.Mutex
	grad   *Tensor
	hooks  []*GradHook // run by Backward once the leaf's gradient is final
}

// buffer is shared by all views of one storage. The runtime cleanup that
// frees device memory is attached to it; it takes st (not buffer itself),
// so an unreachable buffer can be collected. An explicit Free stops the
// cleanup: the runtime then has one record less to keep (adding and
// removing cleanups costs in proportion to the live ones near the object).
type buffer struct {
	st      *bufState
	cleanup runtime.Cleanup // zero for CPU storage
	// seq orders buffers by creation (bufferSeq): Backward owns the
	// gradients whose buffers it saw created (see gradOwner).
	seq uint64
}

// bufferSeq numbers buffers in the order they are created.
var bufferSeq atomic.Uint64

type bufState struct {
	mu      sync.Mutex
	storage Storage
	backend Backend
	pins    int  // ops currently using the storage
	freed   bool // Free was called (release is deferred while pinned)
}

func newBuffer(st Storage, b Backend) *buffer {
	buf := &buffer{st: &bufState{storage: st, backend: b}, seq: bufferSeq.Add(1)}
	if b.Type() != DeviceCPU {
		buf.cleanup = runtime.AddCleanup(buf, func(s *bufState) { _ = s.free() }, buf.st)
	}
	return buf
}

// pin marks the storage as in use; it fails if the storage was freed.
func (s *bufState) pin() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.freed {
		return false
	}
	s.pins++
	return true
}

func (s *bufState) unpin() {
	s.mu.Lock()
	s.pins--
	var st Storage
	if s.pins == 0 && s.freed {
		st, s.storage = s.storage, nil
	}
	s.mu.Unlock()
	if st != nil {
		_ = s.backend.Free(st)
	}
}

func (s *bufState) free() error {
	s.mu.Lock()
	if s.freed {
		s.mu.Unlock()
		return nil
	}
	s.freed = true
	var st Storage
	if s.pins == 0 {
		st, s.storage = s.storage, nil
	}
	s.mu.Unlock()
	if st != nil {
		return s.backend.Free(st)
	}
	return nil
}

func (s *bufState) isFreed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.freed
}

// cpu returns the host storage of a CPU tensor that is known to be live.
func (t *Tensor) cpu() *CPUStorage { return t.buf.st.storage.(*CPUStorage) }

// ---------------------------------------------------------------------------
// Accessors. They are nil-safe and work on freed tensors.

// Shape returns a copy of the tensor's shape ([] for a 0-d tensor).
func (t *Tensor) Shape() []int {
	if t == nil {
		return nil
	}
	return slices.Clone(t.shape)
}

// Strides returns a copy of the tensor's strides, in elements.
func (t *Tensor) Strides() []int {
	if t == nil {
		return nil
	}
	return slices.Clone(t.strides)
}

// Offset returns the storage index of the tensor's first element.
func (t *Tensor) Offset() int {
	if t == nil {
		return 0
	}
	return t.offset
}

// DType returns the element type.
func (t *Tensor) DType() DType {
	if t == nil {
		return 0
	}
	return t.dtype
}

// Device returns the device holding the tensor's storage.
func (t *Tensor) Device() Device {
	if t == nil {
		return Device{}
	}
	return t.device
}

// Dim returns the number of dimensions (0 for a scalar tensor).
func (t *Tensor) Dim() int {
	if t == nil {
		return 0
	}
	return len(t.shape)
}

// Numel returns the number of elements (1 for a 0-d tensor).
func (t *Tensor) Numel() int {
	if t == nil {
		return 0
	}
	return numel(t.shape)
}

// IsContiguous reports whether the elements are laid out densely in
// row-major order (strides of size-1 dimensions are ignored).
func (t *Tensor) IsContiguous() bool {
	if t == nil {
		return false
	}
	return isContiguous(t.shape, t.strides)
}

func isContiguous(shape, strides []int) bool {
	if numel(shape) == 0 {
		return true
	}
	want := 1
	for d := len(shape) - 1; d >= 0; d-- {
		if shape[d] != 1 {
			if strides[d] != want {
				return false
			}
			want *= shape[d]
		}
	}
	return true
}

// Storage returns the backing storage, or nil after Free. Kernels use it to
// reach backend memory (for CPU, a *CPUStorage).
func (t *Tensor) Storage() Storage {
	if t == nil || t.buf == nil {
		return nil
	}
	t.buf.st.mu.Lock()
	defer t.buf.st.mu.Unlock()
	return t.buf.st.storage
}

// String describes the tensor's metadata (not its data).
func (t *Tensor) String() string {
	if t == nil || t.buf == nil {
		return "Tensor(nil)"
	}
	extra := ""
	if t.buf.st.isFreed() {
		extra = ", freed"
	}
	if t.requiresGrad.Load() {
		extra += ", requires_grad"
	}
	return fmt.Sprintf("Tensor(shape=%v, dtype=%v, device=%v%s)", t.shape, t.dtype, t.device, extra)
}

// check returns ErrNil/ErrFreed errors naming op and arg.
func (t *Tensor) check(op, arg string) error {
	if err := t.checkNil(op, arg); err != nil {
		return err
	}
	if t.buf.st.isFreed() {
		return opErr(op, arg, ErrFreed, "%s has been freed", arg)
	}
	return nil
}

// checkNil reports a nil or zero (never constructed) Tensor as ErrNil.
func (t *Tensor) checkNil(op, arg string) error {
	if t == nil {
		return opErr(op, arg, ErrNil, "%s is nil", arg)
	}
	if t.buf == nil {
		return opErr(op, arg, ErrNil, "%s is a zero Tensor (create tensors with the constructors)", arg)
	}
	return nil
}

// Free releases the storage now instead of waiting for the garbage
// collector; this matters for device memory. The storage is shared by all
// views of it, so every view becomes freed: later use returns ErrFreed.
// Ops already running on the storage finish first (release is deferred
// until they do). Free is idempotent and a no-op on a nil tensor. A runtime
// cleanup frees unreachable device storage as a safety net.
func (t *Tensor) Free() error {
	if t == nil || t.buf == nil {
		return nil
	}
	err := t.buf.st.free()
	t.buf.cleanup.Stop()
	if err != nil {
		return fmt.Errorf("ops.Free: %w", err)
	}
	return nil
}

// Close is Free, so a Tensor is an io.Closer.
func (t *Tensor) Close() error { return t.Free() }
