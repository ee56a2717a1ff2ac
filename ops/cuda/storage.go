package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/internal/blockcache"
)

// storage is the ops.Storage of CUDA tensors: n elements of dtype in the
// memory of one device, owned by the stream it was allocated on, where the
// kernels that write it run. Kernels reach it through NewLaunch (this
// package's own too), and StreamOf gives its stream.
type storage struct {
	ptr    uintptr // device address; 0 when n == 0
	dtype  ops.DType
	n      int
	device int
	bytes  int     // size of the block at ptr (its size class when cached)
	stream *Stream // the stream it was allocated on
	graph  *Graph  // the graph whose private pool the block came from, if any

	mu        sync.Mutex
	uses      []*Stream // other streams that read or wrote it (record_stream)
	graphRefs int       // graphs (not closed) whose replays use it
	released  bool      // Free was called while graphRefs > 0
}

// DType implements ops.Storage.
func (s *storage) DType() ops.DType { return s.dtype }

// Len implements ops.Storage.
func (s *storage) Len() int { return s.n }

// StreamOf returns the stream that a CUDA tensor belongs to: the one its
// storage was allocated for and the kernel that wrote it ran on (the
// stream of the context of the op that made it), where its memory goes
// back to the allocator; the device's default stream once that stream is
// closed. A tensor of another device is an ErrDevice error.
func StreamOf(t *ops.Tensor) (*Stream, error) {
	if t == nil {
		return nil, fmt.Errorf("cuda: StreamOf: %w", ops.ErrNil)
	}
	s, err := storageOf(t.Storage())
	if err != nil {
		return nil, fmt.Errorf("cuda: StreamOf a tensor on %v: %w", t.Device(), err)
	}
	return s.stream.effective(), nil
}

// at returns the device address of element off.
func (s *storage) at(off int) C.opscuda_dptr {
	return C.opscuda_dptr(s.ptr + uintptr(off*s.dtype.Size()))
}

// queue returns the C handle of the storage's stream.
func (s *storage) queue() C.opscuda_stream { return s.stream.effective().touch() }

// addUse records that work on s (not the storage's stream) uses the memory.
func (s *storage) addUse(u *Stream) {
	if u == s.stream || u.h == s.stream.h {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(s.uses, u) {
		s.uses = append(s.uses, u)
	}
}

// backend is the ops.Backend of ops.DeviceCUDA.
type backend struct{}

func (backend) Type() ops.DeviceType { return ops.DeviceCUDA }
func (backend) Name() string         { return "cuda" }

// Alloc allocates for the stream ctx chooses on d (StreamFrom), from the
// graph's private pool while that stream is being captured.
func (backend) Alloc(ctx context.Context, d ops.Device, dtype ops.DType, n int) (ops.Storage, error) {
	if err := checkDevice(d); err != nil {
		return nil, err
	}
	size := dtype.Size()
	if size == 0 {
		return nil, fmt.Errorf("cuda: cannot allocate dtype %v: %w", dtype, ops.ErrDType)
	}
	if n < 0 || n > int(^uint(0)>>1)/size {
		return nil, fmt.Errorf("cuda: cannot allocate %d elements of %v: %w", n, dtype, ops.ErrShape)
	}
	st := StreamFrom(ctx, d.Index)
	if st.closed.Load() {
		return nil, fmt.Errorf("cuda: allocating on %v: %w", st, ErrClosed)
	}
	s := &storage{dtype: dtype, n: n, device: d.Index, stream: st}
	if n == 0 {
		return s, nil
	}
	if g := st.capturing(); g != nil {
		p, bytes, err := g.alloc(n * size)
		if err != nil {
			return nil, err
		}
		s.ptr, s.bytes, s.graph = p, bytes, g
		return s, nil
	}
	p, bytes, err := allocBlock(d.Index, st, n*size)
	if err != nil {
		return nil, err
	}
	s.ptr, s.bytes = p, bytes
	return s, nil
}

// Order implements ops.Backend: the kernel writing out runs on out's
// stream; if in belongs to another stream, out's stream first waits for
// the work queued on in's so far, and in's memory is kept from reuse until
// the kernel has run. During a capture, in is kept alive for the graph's
// life instead (Graph.Replay orders the replay after its inputs' streams).
func (backend) Order(in, out ops.Storage) error {
	i, err := storageOf(in)
	if err != nil {
		return err
	}
	o, err := storageOf(out)
	if err != nil {
		return err
	}
	if i.n == 0 {
		return nil
	}
	return orderUse(i, o.stream.effective())
}

// orderUse orders work about to be queued on s after the work on st's
// stream and records the use (see Order).
func orderUse(st *storage, s *Stream) error {
	src := st.stream.effective()
	if g := s.capturing(); g != nil {
		if st.graph == g {
			return nil
		}
		if sg := src.capturing(); sg != nil && src != s {
			err := fmt.Errorf("cuda: a tensor of the capture on %v used on %v: %w", src, s, ErrNotCapturable)
			g.fail(err)
			return err
		}
		g.keep(st)
		return nil
	}
	if sg := src.capturing(); sg != nil {
		err := fmt.Errorf("cuda: a tensor of the capture on %v used on %v before the capture ended: %w", src, s, ErrNotCapturable)
		sg.fail(err)
		return err
	}
	if src == s {
		return nil
	}
	if err := s.WaitStream(src); err != nil {
		return err
	}
	st.addUse(s)
	return nil
}

// Freed blocks of up to 64 MiB are cached for reuse by the next allocation
// of their size class on their stream, at most 1 GiB per device.
var cache = blockcache.New(64<<20, 1<<30)

// codeMemoryAllocation is cudaErrorMemoryAllocation.
const codeMemoryAllocation = 2

// allocBlock returns a block of at least n > 0 bytes on device for stream
// s: a cached one if there is one of n's size class freed on s, else a new
// one from the pool (after emptying the device's cache if the pool is out
// of memory).
func allocBlock(device int, s *Stream, n int) (uintptr, int, error) {
	size := n
	if n <= cache.MaxBlock() {
		size = blockcache.SizeClass(n)
		if p := cache.Get(device, uintptr(s.h), size); p != 0 {
			return p, size, nil
		}
	}
	var p C.opscuda_dptr
	malloc := func() C.int { return C.opscuda_malloc(C.int(device), s.h, C.ulonglong(size), &p) }
	code := malloc()
	if code == codeMemoryAllocation && cache.Bytes(device) > 0 {
		if err := EmptyCache(device); err != nil {
			return 0, 0, err
		}
		code = malloc()
	}
	if code != 0 {
		return 0, 0, check(fmt.Sprintf("cudaMallocAsync of %d bytes on %v", size, s), code)
	}
	return uintptr(p), size, nil
}

// poolFree returns the block p on device to the device's pool after the
// work queued on stream.
func poolFree(device int, stream C.opscuda_stream, p uintptr) error {
	if code := C.opscuda_free(C.int(device), stream, C.opscuda_dptr(p)); code != 0 {
		return check(fmt.Sprintf("cudaFreeAsync on cuda:%d", device), code)
	}
	return nil
}

// EmptyCache returns the device memory that freed tensors left in this
// package's cache of freed blocks (at most 1 GiB per device) to CUDA
// device n's memory pool, like torch.cuda.empty_cache. Blocks still
// waiting for other streams stay. Allocation does it by itself before it
// reports running out of memory.
func EmptyCache(n int) error {
	if err := checkDevice(ops.CUDA(n)); err != nil {
		return err
	}
	capturing := map[uintptr]bool{}
	for _, s := range liveStreams(n) {
		if s.capturing() != nil {
			capturing[uintptr(s.h)] = true
		}
	}
	var first error
	for _, b := range cache.Drain(n) {
		if capturing[b.Stream] { // a free queued there would go into the graph
			if !cache.Put(n, b.Stream, b.Size, b.Ptr) {
				first = fmt.Errorf("cuda: EmptyCache: could not keep a block of a stream being captured")
			}
			continue
		}
		if err := poolFree(n, C.opscuda_stream(b.Stream), b.Ptr); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func storageOf(s ops.Storage) (*storage, error) {
	cs, ok := s.(*storage)
	if !ok || cs == nil {
		return nil, fmt.Errorf("cuda: storage is %T, not a CUDA tensor's: %w", s, ops.ErrDevice)
	}
	return cs, nil
}

func (backend) Free(s ops.Storage) error {
	cs, err := storageOf(s)
	if err != nil {
		return err
	}
	if cs.ptr == 0 {
		return nil
	}
	cs.mu.Lock()
	if cs.graphRefs > 0 {
		cs.released = true
		cs.mu.Unlock()
		return nil
	}
	cs.mu.Unlock()
	return cs.release()
}

// release gives the block back: to its graph's pool, to the cache for its
// stream (at once, or after fences recorded on the other streams that used
// it), or to the device's pool.
func (s *storage) release() error {
	s.mu.Lock()
	uses := s.uses
	s.uses = nil
	s.mu.Unlock()
	if s.graph != nil {
		return s.graph.free(s.bytes, s.ptr)
	}
	st := s.stream.effective()
	// Nothing stream-ordered may be queued on a stream being captured (it
	// would go into the graph): such a release waits for the capture's end.
	for i := -1; i < len(uses); i++ {
		u := st
		if i >= 0 {
			u = uses[i]
		}
		if g := u.capturing(); g != nil {
			s.mu.Lock()
			s.uses = uses
			s.mu.Unlock()
			g.deferRelease(s)
			return nil
		}
	}
	var fences []blockcache.Fence
	for _, u := range uses {
		if u.closed.Load() || u == st {
			continue // a closed stream's work is complete
		}
		e, err := getEvent(s.device)
		if err != nil {
			return err
		}
		if err := check(fmt.Sprintf("recording an event on %v", u), C.opscuda_event_record(C.int(s.device), e, u.h)); err != nil {
			putEvent(s.device, e)
			return err
		}
		fences = append(fences, fence{device: s.device, e: e})
	}
	if cache.PutPending(s.device, uintptr(st.h), s.bytes, s.ptr, fences) {
		return nil
	}
	// Not cached: the pool gets the block after st has waited for the
	// other streams' work on it.
	for _, f := range fences {
		ff := f.(fence)
		err := check(fmt.Sprintf("waiting on %v", st), C.opscuda_stream_wait_event(C.int(s.device), st.h, ff.e))
		ff.Release()
		if err != nil {
			return err
		}
	}
	return poolFree(s.device, st.h, s.ptr)
}
