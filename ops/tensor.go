package ops

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
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

	gradMu sync.Mutex
	grad   *Tensor
}

// buffer is shared by all views of one storage. The runtime cleanup that
// frees device memory is attached to it; it takes st (not buffer itself),
// so an unreachable buffer can be collected. An explicit Free stops the
// cleanup: the runtime then has one record less to keep (adding and
// removing cleanups costs in proportion to the live ones near the object).
type buffer struct {
	st      *bufState
	cleanup runtime.Cleanup // zero for CPU storage
}

type bufState struct {
	mu      sync.Mutex
	storage Storage
	backend Backend
	pins    int  // ops currently using the storage
	freed   bool // Free was called (release is deferred while pinned)
}

func newBuffer(st Storage, b Backend) *buffer {
	buf := &buffer{st: &bufState{storage: st, backend: b}}
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

// ---------------------------------------------------------------------------
// Shape helpers.

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

func contiguousStrides(shape []int) []int {
	st := make([]int, len(shape))
	acc := 1
	for d := len(shape) - 1; d >= 0; d-- {
		st[d] = acc
		acc *= shape[d]
	}
	return st
}

// checkShape validates dims (non-negative, product fits in an int) and
// returns a private copy.
func checkShape(op string, shape []int) ([]int, error) {
	n := uint(1)
	for i, d := range shape {
		if d < 0 {
			return nil, opErr(op, "shape", ErrShape, "shape %v has negative dimension %d at index %d", shape, d, i)
		}
		hi, lo := bits.Mul(n, uint(d))
		if hi != 0 || lo > uint(maxInt) {
			return nil, opErr(op, "shape", ErrShape, "shape %v has too many elements", shape)
		}
		n = lo
	}
	return append(make([]int, 0, len(shape)), shape...), nil
}

const maxInt = int(^uint(0) >> 1)

func checkDType(op string, d DType) error {
	if !d.valid() {
		return opErr(op, "dtype", ErrDType, "dtype %v is not supported, expected float32 or float64", d)
	}
	return nil
}

// allocTensor allocates a contiguous tensor; shape must be owned.
func allocTensor(op string, dev Device, dtype DType, shape []int) (*Tensor, error) {
	b, err := backendFor(op, dev)
	if err != nil {
		return nil, err
	}
	n := numel(shape)
	st, err := b.Alloc(dev, dtype, n)
	if err != nil {
		return nil, fmt.Errorf("ops.%s: allocating %d %v elements on %v: %w", op, n, dtype, dev, err)
	}
	if st == nil || st.Len() != n || st.DType() != dtype {
		return nil, fmt.Errorf("ops.%s: backend %s returned bad storage for %d %v elements", op, b.Name(), n, dtype)
	}
	return &Tensor{shape: shape, strides: contiguousStrides(shape), dtype: dtype, device: dev, buf: newBuffer(st, b)}, nil
}

func newHost(op string, dtype DType, shape []int) (*Tensor, error) {
	if err := checkDType(op, dtype); err != nil {
		return nil, err
	}
	shape, err := checkShape(op, shape)
	if err != nil {
		return nil, err
	}
	return allocTensor(op, CPU, dtype, shape)
}

// ---------------------------------------------------------------------------
// Constructors. All create contiguous CPU tensors; use To to move them.
// An empty shape gives a 0-d (scalar) tensor with one element.

// Zeros returns a CPU tensor of the given dtype and shape filled with 0.
func Zeros(dtype DType, shape ...int) (*Tensor, error) {
	return newHost("Zeros", dtype, shape)
}

// Full returns a CPU tensor of the given dtype and shape filled with value.
func Full(value float64, dtype DType, shape ...int) (*Tensor, error) {
	t, err := newHost("Full", dtype, shape)
	if err != nil {
		return nil, err
	}
	s := t.cpu()
	if dtype == Float32 {
		for i := range s.f32 {
			s.f32[i] = float32(value)
		}
	} else {
		for i := range s.f64 {
			s.f64[i] = value
		}
	}
	return t, nil
}

// FromFloat32 returns a float32 CPU tensor holding a copy of data in
// row-major order. With no shape, the tensor is 1-D of length len(data).
func FromFloat32(data []float32, shape ...int) (*Tensor, error) {
	if shape == nil {
		shape = []int{len(data)}
	}
	t, err := newHost("FromFloat32", Float32, shape)
	if err != nil {
		return nil, err
	}
	if n := t.Numel(); n != len(data) {
		return nil, opErr("FromFloat32", "data", ErrShape, "data has %d elements, shape %v needs %d", len(data), shape, n)
	}
	copy(t.cpu().f32, data)
	return t, nil
}

// FromFloat64 returns a float64 CPU tensor holding a copy of data in
// row-major order. With no shape, the tensor is 1-D of length len(data).
func FromFloat64(data []float64, shape ...int) (*Tensor, error) {
	if shape == nil {
		shape = []int{len(data)}
	}
	return fromFloat64("FromFloat64", data, shape)
}

func fromFloat64(op string, data []float64, shape []int) (*Tensor, error) {
	t, err := newHost(op, Float64, shape)
	if err != nil {
		return nil, err
	}
	if n := t.Numel(); n != len(data) {
		return nil, opErr(op, "data", ErrShape, "data has %d elements, shape %v needs %d", len(data), shape, n)
	}
	copy(t.cpu().f64, data)
	return t, nil
}

// Rand returns a CPU tensor of independent uniform values in [0, 1). The
// values depend only on seed, dtype and the number of elements (PCG from
// math/rand/v2), so they are reproducible across runs and platforms.
func Rand(seed uint64, dtype DType, shape ...int) (*Tensor, error) {
	t, err := newHost("Rand", dtype, shape)
	if err != nil {
		return nil, err
	}
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	s := t.cpu()
	if dtype == Float32 {
		for i := range s.f32 {
			s.f32[i] = r.Float32()
		}
	} else {
		for i := range s.f64 {
			s.f64[i] = r.Float64()
		}
	}
	return t, nil
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

// ---------------------------------------------------------------------------
// Views.

func (t *Tensor) view(shape, strides []int, offset int) *Tensor {
	return &Tensor{shape: shape, strides: strides, offset: offset, dtype: t.dtype, device: t.device, buf: t.buf}
}

func checkDim(op, arg string, d, rank int, shape []int) error {
	if d < 0 || d >= rank {
		return opErr(op, arg, ErrArg, "%s is %d, expected a dimension in [0, %d) for shape %v", arg, d, rank, shape)
	}
	return nil
}

// Transpose returns a view with dimensions d0 and d1 swapped (no copy).
func (t *Tensor) Transpose(d0, d1 int) (*Tensor, error) {
	const op = "Transpose"
	if err := t.check(op, "tensor"); err != nil {
		return nil, err
	}
	if err := checkDim(op, "d0", d0, len(t.shape), t.shape); err != nil {
		return nil, err
	}
	if err := checkDim(op, "d1", d1, len(t.shape), t.shape); err != nil {
		return nil, err
	}
	shape, strides := slices.Clone(t.shape), slices.Clone(t.strides)
	shape[d0], shape[d1] = shape[d1], shape[d0]
	strides[d0], strides[d1] = strides[d1], strides[d0]
	v := t.view(shape, strides, t.offset)
	recordUnary(v, op, t, func(g *Tensor) (*Tensor, error) { return g.Transpose(d0, d1) })
	return v, nil
}

// Narrow returns a view of elements start..start+length-1 along dim (no
// copy).
func (t *Tensor) Narrow(dim, start, length int) (*Tensor, error) {
	const op = "Narrow"
	if err := t.check(op, "tensor"); err != nil {
		return nil, err
	}
	if err := checkDim(op, "dim", dim, len(t.shape), t.shape); err != nil {
		return nil, err
	}
	size := t.shape[dim]
	if start < 0 || length < 0 || start > size-length {
		return nil, opErr(op, "length", ErrArg, "start %d and length %d are out of range for dimension %d of size %d", start, length, dim, size)
	}
	shape := slices.Clone(t.shape)
	shape[dim] = length
	v := t.view(shape, slices.Clone(t.strides), t.offset+start*t.strides[dim])
	recordUnary(v, op, t, func(g *Tensor) (*Tensor, error) { return narrowBackward(g, dim, start, size) })
	return v, nil
}

// Reshape returns a tensor with the same elements in row-major order and
// the given shape; one dimension may be -1 and is then inferred. Like
// torch.reshape, it returns a view sharing t's storage when the strides
// allow it (always for contiguous t) and otherwise a contiguous copy;
// compare Storage() values if the difference matters.
func (t *Tensor) Reshape(shape ...int) (*Tensor, error) {
	const op = "Reshape"
	if err := t.check(op, "tensor"); err != nil {
		return nil, err
	}
	shape = slices.Clone(shape)
	n := numel(t.shape)
	infer, known := -1, 1
	for i, d := range shape {
		switch {
		case d == -1 && infer < 0:
			infer = i
		case d < 0:
			return nil, opErr(op, "shape", ErrShape, "shape %v is invalid: only one dimension may be -1 and none may be negative", shape)
		default:
			known *= d
		}
	}
	if infer >= 0 {
		if known == 0 || n%known != 0 {
			return nil, opErr(op, "shape", ErrShape, "shape %v is invalid for input of shape %v (%d elements)", shape, t.shape, n)
		}
		shape[infer] = n / known
	}
	if _, err := checkShape(op, shape); err != nil {
		return nil, err
	}
	if numel(shape) != n {
		return nil, opErr(op, "shape", ErrShape, "shape %v is invalid for input of shape %v (%d elements)", shape, t.shape, n)
	}
	src := t
	strides, ok := viewStrides(t.shape, t.strides, shape)
	if !ok {
		c, err := t.Contiguous()
		if err != nil {
			return nil, err
		}
		src, strides = c, contiguousStrides(shape)
	}
	v := src.view(shape, strides, src.offset)
	oldShape := slices.Clone(t.shape)
	recordUnary(v, op, src, func(g *Tensor) (*Tensor, error) { return g.Reshape(oldShape...) })
	return v, nil
}

// viewStrides returns strides that let a tensor with oldShape/oldStrides be
// viewed as newShape without copying (the algorithm of ATen's
// computeStride), or ok=false if no such strides exist.
func viewStrides(oldShape, oldStrides, newShape []int) ([]int, bool) {
	if len(oldShape) == 0 || numel(oldShape) == 0 {
		return contiguousStrides(newShape), true
	}
	newStrides := make([]int, len(newShape))
	viewD := len(newShape) - 1
	chunkBase := oldStrides[len(oldStrides)-1]
	tensorN, viewN := 1, 1
	for d := len(oldShape) - 1; d >= 0; d-- {
		tensorN *= oldShape[d]
		if d == 0 || (oldShape[d-1] != 1 && oldStrides[d-1] != tensorN*chunkBase) {
			for viewD >= 0 && (viewN < tensorN || newShape[viewD] == 1) {
				newStrides[viewD] = viewN * chunkBase
				viewN *= newShape[viewD]
				viewD--
			}
			if viewN != tensorN {
				return nil, false
			}
			if d > 0 {
				chunkBase = oldStrides[d-1]
				tensorN, viewN = 1, 1
			}
		}
	}
	return newStrides, viewD == -1
}

// Contiguous returns t itself if it is contiguous, else a contiguous copy on
// the same device.
func (t *Tensor) Contiguous() (*Tensor, error) {
	if err := t.check("Contiguous", "tensor"); err != nil {
		return nil, err
	}
	if t.IsContiguous() {
		return t, nil
	}
	return copyTensor("Contiguous", t, true)
}

// copyTensor returns a contiguous copy of t, using the device's
// "Contiguous" kernel if it has one and a round trip through host memory
// otherwise (so a backend needs no kernels for To and Float64s to work).
func copyTensor(op string, t *Tensor, record bool) (*Tensor, error) {
	if hasKernel(contiguousOp, t.device.Type) {
		return contiguousOp.call(op, []*Tensor{t}, nil, record)
	}
	if !t.buf.st.pin() {
		return nil, opErr(op, "tensor", ErrFreed, "tensor has been freed")
	}
	defer t.buf.st.unpin()
	lo, hi := t.offset, t.offset+1
	for d, s := range t.shape {
		if s == 0 {
			hi = lo
			break
		}
		hi += (s - 1) * t.strides[d]
	}
	b := t.buf.st.backend
	host := newCPUStorage(t.dtype, hi-lo)
	if err := b.CopyToHost(host, 0, t.buf.st.storage, lo, hi-lo); err != nil {
		return nil, fmt.Errorf("ops.%s: copying from %v to host: %w", op, t.device, err)
	}
	ht := &Tensor{shape: t.shape, strides: t.strides, offset: t.offset - lo, dtype: t.dtype, device: CPU, buf: newBuffer(host, cpuBackend{})}
	hc, err := contiguousOp.call(op, []*Tensor{ht}, nil, false)
	if err != nil {
		return nil, err
	}
	out, err := allocTensor(op, t.device, t.dtype, slices.Clone(t.shape))
	if err != nil {
		return nil, err
	}
	if err := b.CopyFromHost(out.buf.st.storage, 0, hc.cpu(), 0, out.Numel()); err != nil {
		out.Free()
		return nil, fmt.Errorf("ops.%s: copying from host to %v: %w", op, t.device, err)
	}
	if record {
		recordUnary(out, op, t, func(g *Tensor) (*Tensor, error) { return g, nil })
	}
	return out, nil
}

// To returns a copy of t on device dev (t itself if it is already there).
// The copy goes through the backends' host copies; device-to-device copies
// are staged through host memory.
func (t *Tensor) To(dev Device) (*Tensor, error) {
	const op = "To"
	if err := t.check(op, "tensor"); err != nil {
		return nil, err
	}
	if !dev.valid() {
		return nil, opErr(op, "device", ErrDevice, "device %v is invalid", dev)
	}
	if dev == t.device {
		return t, nil
	}
	dstB, err := backendFor(op, dev)
	if err != nil {
		return nil, err
	}
	src := t
	if !t.IsContiguous() {
		if src, err = copyTensor(op, t.Detach(), false); err != nil {
			return nil, err
		}
		defer src.Free()
	}
	if !src.buf.st.pin() {
		return nil, opErr(op, "tensor", ErrFreed, "tensor has been freed")
	}
	defer src.buf.st.unpin()
	out, err := allocTensor(op, dev, t.dtype, slices.Clone(t.shape))
	if err != nil {
		return nil, err
	}
	n, off := out.Numel(), src.offset
	srcB, srcSt, dstSt := src.buf.st.backend, src.buf.st.storage, out.buf.st.storage
	switch {
	case t.device.Type == DeviceCPU:
		err = dstB.CopyFromHost(dstSt, 0, srcSt.(*CPUStorage), off, n)
	case dev.Type == DeviceCPU:
		err = srcB.CopyToHost(dstSt.(*CPUStorage), 0, srcSt, off, n)
	default:
		tmp := newCPUStorage(t.dtype, n)
		if err = srcB.CopyToHost(tmp, 0, srcSt, off, n); err == nil {
			err = dstB.CopyFromHost(dstSt, 0, tmp, 0, n)
		}
	}
	if err != nil {
		out.Free()
		return nil, fmt.Errorf("ops.To: copying from %v to %v: %w", t.device, dev, err)
	}
	from := t.device
	recordUnary(out, op, t, func(g *Tensor) (*Tensor, error) { return g.To(from) })
	return out, nil
}

// hostView returns a CPU tensor with t's values (t itself if on CPU), pinned
// until release is called.
func (t *Tensor) hostView(op string) (h *Tensor, release func(), err error) {
	if err := t.checkNil(op, "tensor"); err != nil {
		return nil, nil, err
	}
	if t.device.Type != DeviceCPU {
		if h, err = t.Detach().To(CPU); err != nil {
			return nil, nil, err
		}
	} else {
		h = t
	}
	if !h.buf.st.pin() {
		return nil, nil, opErr(op, "tensor", ErrFreed, "tensor has been freed")
	}
	return h, h.buf.st.unpin, nil
}

// Float64s copies the elements to a new host slice in row-major (logical)
// order, converting float32 values to float64.
func (t *Tensor) Float64s() ([]float64, error) {
	h, release, err := t.hostView("Float64s")
	if err != nil {
		return nil, err
	}
	defer release()
	out := make([]float64, h.Numel())
	if h.dtype == Float32 {
		gather(out, h.cpu().f32, h)
	} else {
		gather(out, h.cpu().f64, h)
	}
	return out, nil
}

// Float32s copies the elements to a new host slice in row-major (logical)
// order, rounding float64 values to float32.
func (t *Tensor) Float32s() ([]float32, error) {
	h, release, err := t.hostView("Float32s")
	if err != nil {
		return nil, err
	}
	defer release()
	out := make([]float32, h.Numel())
	if h.dtype == Float32 {
		gather(out, h.cpu().f32, h)
	} else {
		gather(out, h.cpu().f64, h)
	}
	return out, nil
}

// Item returns the value of a one-element tensor as a float64.
func (t *Tensor) Item() (float64, error) {
	if err := t.check("Item", "tensor"); err != nil {
		return 0, err
	}
	if n := t.Numel(); n != 1 {
		return 0, opErr("Item", "tensor", ErrShape, "tensor has shape %v (%d elements), expected exactly 1 element", t.shape, n)
	}
	v, err := t.Float64s()
	if err != nil {
		return 0, err
	}
	return v[0], nil
}

// gather copies the strided elements of t (backed by src) into dst in
// logical order.
func gather[D, S float](dst []D, src []S, t *Tensor) {
	if len(dst) == 0 {
		return
	}
	if t.IsContiguous() {
		for i, v := range src[t.offset : t.offset+len(dst)] {
			dst[i] = D(v)
		}
		return
	}
	l := newLayout(t.shape, []int{t.offset}, t.strides)
	s := l.inner[0]
	i := 0
	l.rows(0, len(dst), func(off []int, n int) {
		o := off[0]
		for k := 0; k < n; k++ {
			dst[i] = D(src[o])
			i++
			o += s
		}
	})
}
