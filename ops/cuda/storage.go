package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import (
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/internal/blockcache"
)

// Storage is the ops.Storage of CUDA tensors: Len elements of DType in the
// memory of one device. Kernels outside this package may use Ptr to reach
// the memory (on the legacy default stream, after cudaSetDevice(Device)).
type Storage struct {
	ptr    uintptr // device address; 0 when n == 0
	dtype  ops.DType
	n      int
	device int
	bytes  int // size of the block at ptr (its size class when cached)
}

// DType implements ops.Storage.
func (s *Storage) DType() ops.DType { return s.dtype }

// Len implements ops.Storage.
func (s *Storage) Len() int { return s.n }

// Device returns the device holding the memory.
func (s *Storage) Device() ops.Device { return ops.CUDA(s.device) }

// Ptr returns the device address of element 0 (0 for an empty storage).
func (s *Storage) Ptr() uintptr { return s.ptr }

// at returns the device address of element off.
func (s *Storage) at(off int) C.opscuda_dptr {
	return C.opscuda_dptr(s.ptr + uintptr(off*s.dtype.Size()))
}

// backend is the ops.Backend of ops.DeviceCUDA.
type backend struct{}

func (backend) Type() ops.DeviceType { return ops.DeviceCUDA }
func (backend) Name() string         { return "cuda" }

func (backend) Alloc(d ops.Device, dtype ops.DType, n int) (ops.Storage, error) {
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
	s := &Storage{dtype: dtype, n: n, device: d.Index}
	if n == 0 {
		return s, nil
	}
	p, bytes, err := allocBlock(d.Index, n*size)
	if err != nil {
		return nil, err
	}
	s.ptr, s.bytes = p, bytes
	return s, nil
}

// Freed blocks of up to 64 MiB are cached for reuse by the next allocation
// of their size class, at most 1 GiB per device. Reuse needs no
// synchronization because all work runs on the device's legacy default
// stream: what the next owner queues runs after the work queued on the
// block so far.
var cache = blockcache.New(64<<20, 1<<30)

// codeMemoryAllocation is cudaErrorMemoryAllocation.
const codeMemoryAllocation = 2

// allocBlock returns a block of at least n > 0 bytes on device: a cached
// one if there is one of n's size class, else a new one from the pool (after
// emptying the device's cache if the pool is out of memory).
func allocBlock(device, n int) (uintptr, int, error) {
	size := n
	if n <= cache.MaxBlock() {
		size = blockcache.SizeClass(n)
		if p := cache.Get(device, size); p != 0 {
			return p, size, nil
		}
	}
	var p C.opscuda_dptr
	malloc := func() C.int { return C.opscuda_malloc(C.int(device), C.ulonglong(size), &p) }
	code := malloc()
	if code == codeMemoryAllocation && cache.Bytes(device) > 0 {
		if err := EmptyCache(device); err != nil {
			return 0, 0, err
		}
		code = malloc()
	}
	if code != 0 {
		return 0, 0, check(fmt.Sprintf("cudaMallocAsync of %d bytes on cuda:%d", size, device), code)
	}
	return uintptr(p), size, nil
}

// freeBlock caches the block p of size bytes on device, or returns it to
// the device's pool.
func freeBlock(device, size int, p uintptr) error {
	if cache.Put(device, size, p) {
		return nil
	}
	return poolFree(device, p)
}

// poolFree returns the block p on device to the device's pool.
func poolFree(device int, p uintptr) error {
	if code := C.opscuda_free(C.int(device), C.opscuda_dptr(p)); code != 0 {
		return check(fmt.Sprintf("cudaFreeAsync on cuda:%d", device), code)
	}
	return nil
}

// EmptyCache returns the device memory that freed tensors left in this
// package's cache of freed blocks (at most 1 GiB per device) to CUDA
// device n's memory pool, like torch.cuda.empty_cache. Allocation does it
// by itself before it reports running out of memory.
func EmptyCache(n int) error {
	if err := checkDevice(ops.CUDA(n)); err != nil {
		return err
	}
	var first error
	for _, p := range cache.Drain(n) {
		if err := poolFree(n, p); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func storageOf(s ops.Storage) (*Storage, error) {
	cs, ok := s.(*Storage)
	if !ok || cs == nil {
		return nil, fmt.Errorf("cuda: storage is %T, expected *cuda.Storage: %w", s, ops.ErrDevice)
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
	return freeBlock(cs.device, cs.bytes, cs.ptr)
}
