package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/internal/blockcache"
)

// MaxDims is the most dimensions a non-contiguous tensor may have, after
// merging dimensions that are contiguous with each other, for the CUDA
// kernels to index it (like C's OPSCUDA_MAX_DIMS).
const MaxDims = C.OPSCUDA_MAX_DIMS

// ErrNoDevice is wrapped by the errors returned when there is no usable CUDA
// device: no GPU, no driver, a device index out of range, or a build
// without CUDA.
var ErrNoDevice = errors.New("cuda: no CUDA device")

// CUDA error codes the package interprets.
const (
	codeInsufficientDriver = 35  // cudaErrorInsufficientDriver: no driver, or too old
	codeStubLibrary        = 34  // cudaErrorStubLibrary: the driver is a stub
	codeNoDevice           = 100 // cudaErrorNoDevice
	codeInvalidDevice      = 101 // cudaErrorInvalidDevice
)

// Error is an error reported by the CUDA runtime.
type Error struct {
	Op   string // what was being done, e.g. "Polynomial kernel" or "cudaGetDeviceCount"
	Code int    // the cudaError_t value
	Name string // its name, e.g. "cudaErrorMemoryAllocation" (cudaGetErrorName)
	Msg  string // its description (cudaGetErrorString)
}

// Error returns "cuda: <Op>: <Name> (<Msg>)".
func (e *Error) Error() string {
	return fmt.Sprintf("cuda: %s: %s (%s)", e.Op, e.Name, e.Msg)
}

// Is reports whether e means that there is no usable device, so that
// errors.Is(err, ErrNoDevice) holds for it.
func (e *Error) Is(target error) bool {
	if target != ErrNoDevice {
		return false
	}
	switch e.Code {
	case codeInsufficientDriver, codeStubLibrary, codeNoDevice, codeInvalidDevice:
		return true
	}
	return false
}

// check turns a cudaError_t into an *Error (nil for cudaSuccess).
func check(op string, code C.int) error {
	if code == 0 {
		return nil
	}
	return &Error{
		Op:   op,
		Code: int(code),
		Name: C.GoString(C.opscuda_error_name(code)),
		Msg:  C.GoString(C.opscuda_error_string(code)),
	}
}

// noDeviceError is what Alloc and the other entry points return when there
// is no usable device; it wraps ErrNoDevice and the CUDA error, if any.
type noDeviceError struct {
	detail string
	cause  error
}

func (e *noDeviceError) Error() string { return "cuda: no CUDA device: " + e.detail }

func (e *noDeviceError) Unwrap() []error {
	if e.cause == nil {
		return []error{ErrNoDevice}
	}
	return []error{ErrNoDevice, e.cause}
}

var deviceCount = sync.OnceValues(func() (int, error) {
	var n C.int
	if err := check("cudaGetDeviceCount", C.opscuda_device_count(&n)); err != nil {
		var ce *Error
		errors.As(err, &ce)
		return 0, &noDeviceError{detail: fmt.Sprintf("cudaGetDeviceCount returned %s (%s)", ce.Name, ce.Msg), cause: err}
	}
	if n <= 0 {
		return 0, &noDeviceError{detail: "cudaGetDeviceCount found 0 devices"}
	}
	return int(n), nil
})

// DeviceCount returns the number of CUDA devices. Without one (no GPU, no
// driver, a build without CUDA) it returns 0 and an error wrapping
// ErrNoDevice that says why. The result is computed once.
func DeviceCount() (int, error) { return deviceCount() }

// Available reports whether at least one CUDA device can be used; if not,
// the error (wrapping ErrNoDevice) says why.
func Available() (bool, error) {
	n, err := DeviceCount()
	return n > 0, err
}

// DeviceInfo describes a CUDA device.
type DeviceInfo struct {
	Name         string // e.g. "NVIDIA H100 80GB HBM3"
	Major, Minor int    // compute capability
	SMs          int    // number of multiprocessors
}

// Info returns the properties of CUDA device n.
func Info(n int) (DeviceInfo, error) {
	if err := checkDevice(ops.CUDA(n)); err != nil {
		return DeviceInfo{}, err
	}
	var name [256]C.char
	var major, minor, sms C.int
	if err := check("cudaGetDeviceProperties", C.opscuda_device_info(C.int(n), &name[0], C.int(len(name)), &major, &minor, &sms)); err != nil {
		return DeviceInfo{}, err
	}
	return DeviceInfo{Name: C.GoString(&name[0]), Major: int(major), Minor: int(minor), SMs: int(sms)}, nil
}

// checkDevice returns an error wrapping ErrNoDevice unless d is an existing
// CUDA device.
func checkDevice(d ops.Device) error {
	if d.Type != ops.DeviceCUDA {
		return fmt.Errorf("cuda: device %v is not a CUDA device: %w", d, ops.ErrDevice)
	}
	n, err := DeviceCount()
	if err != nil {
		return err
	}
	if d.Index < 0 || d.Index >= n {
		return &noDeviceError{detail: fmt.Sprintf("%v does not exist (%d device(s): cuda:0 to cuda:%d)", d, n, n-1)}
	}
	return nil
}

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

// hostSpan returns the address and byte size of n elements of h from off,
// after checking bounds and dtype.
func hostSpan(h *ops.CPUStorage, off, n int, dtype ops.DType) (unsafe.Pointer, int, error) {
	if h == nil {
		return nil, 0, fmt.Errorf("cuda: host storage is nil: %w", ops.ErrNil)
	}
	if h.DType() != dtype {
		return nil, 0, fmt.Errorf("cuda: host storage has dtype %v, expected %v: %w", h.DType(), dtype, ops.ErrDType)
	}
	if off < 0 || n < 0 || off+n > h.Len() {
		return nil, 0, fmt.Errorf("cuda: host range [%d, %d) is outside a storage of %d elements: %w", off, off+n, h.Len(), ops.ErrArg)
	}
	if dtype == ops.Float32 {
		return unsafe.Pointer(&h.Float32()[off]), n * 4, nil
	}
	return unsafe.Pointer(&h.Float64()[off]), n * 8, nil
}

func deviceSpan(s ops.Storage, off, n int) (*Storage, error) {
	cs, err := storageOf(s)
	if err != nil {
		return nil, err
	}
	if off < 0 || n < 0 || off+n > cs.n {
		return nil, fmt.Errorf("cuda: device range [%d, %d) is outside a storage of %d elements: %w", off, off+n, cs.n, ops.ErrArg)
	}
	return cs, nil
}

func (backend) CopyFromHost(dst ops.Storage, dstOff int, src *ops.CPUStorage, srcOff, n int) error {
	d, err := deviceSpan(dst, dstOff, n)
	if err != nil || n == 0 {
		return err
	}
	p, bytes, err := hostSpan(src, srcOff, n, d.dtype)
	if err != nil {
		return err
	}
	if code := C.opscuda_copy_to_device(C.int(d.device), d.at(dstOff), p, C.ulonglong(bytes)); code != 0 {
		return check(fmt.Sprintf("copying %d bytes to cuda:%d", bytes, d.device), code)
	}
	return nil
}

func (backend) CopyToHost(dst *ops.CPUStorage, dstOff int, src ops.Storage, srcOff, n int) error {
	s, err := deviceSpan(src, srcOff, n)
	if err != nil || n == 0 {
		return err
	}
	p, bytes, err := hostSpan(dst, dstOff, n, s.dtype)
	if err != nil {
		return err
	}
	if code := C.opscuda_copy_to_host(C.int(s.device), p, s.at(srcOff), C.ulonglong(bytes)); code != 0 {
		return check(fmt.Sprintf("copying %d bytes from cuda:%d", bytes, s.device), code)
	}
	return nil
}

func (backend) Synchronize(d ops.Device) error {
	if err := checkDevice(d); err != nil {
		return err
	}
	if code := C.opscuda_synchronize(C.int(d.Index)); code != 0 {
		return check(fmt.Sprintf("cudaDeviceSynchronize on %v", d), code)
	}
	return nil
}
