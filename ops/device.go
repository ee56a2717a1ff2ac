package ops

import (
	"fmt"
	"sync"
)

// DType is the element type of a tensor.
type DType uint8

// Supported dtypes. The zero DType is invalid.
const (
	Float32 DType = iota + 1 // 32-bit IEEE 754 float
	Float64                  // 64-bit IEEE 754 float
)

// String returns "float32" or "float64".
func (d DType) String() string {
	switch d {
	case Float32:
		return "float32"
	case Float64:
		return "float64"
	}
	return fmt.Sprintf("DType(%d)", uint8(d))
}

// Size returns the size of one element in bytes (0 for an invalid dtype).
func (d DType) Size() int {
	switch d {
	case Float32:
		return 4
	case Float64:
		return 8
	}
	return 0
}

func (d DType) valid() bool { return d == Float32 || d == Float64 }

// DeviceType is a kind of device; each has at most one Backend.
type DeviceType uint8

// Device types. CPU is built in; CUDA needs a Backend registered with
// RegisterBackend (by importing the ops/cuda package).
const (
	DeviceCPU DeviceType = iota
	DeviceCUDA
	numDeviceTypes
)

// String returns "cpu" or "cuda".
func (t DeviceType) String() string {
	switch t {
	case DeviceCPU:
		return "cpu"
	case DeviceCUDA:
		return "cuda"
	}
	return fmt.Sprintf("DeviceType(%d)", uint8(t))
}

// Device identifies where a tensor's storage lives. The zero Device is CPU.
type Device struct {
	Type  DeviceType
	Index int // device ordinal; always 0 for CPU
}

// CPU is the host device.
var CPU = Device{Type: DeviceCPU}

// CUDA returns the n-th CUDA device.
func CUDA(n int) Device { return Device{Type: DeviceCUDA, Index: n} }

// String returns "cpu" or "cuda:N".
func (d Device) String() string {
	if d.Type == DeviceCPU && d.Index == 0 {
		return "cpu"
	}
	return fmt.Sprintf("%v:%d", d.Type, d.Index)
}

func (d Device) valid() bool {
	if d.Type == DeviceCPU {
		return d.Index == 0
	}
	return d.Type < numDeviceTypes && d.Index >= 0
}

// Storage is a flat buffer of Len elements of one dtype owned by a Backend.
// Tensors are strided views into a Storage. Backends define their own
// concrete type (holding, say, a device pointer) and kernels type-assert
// Tensor.Storage to it. The CPU backend uses *CPUStorage.
type Storage interface {
	DType() DType
	Len() int
}

// CPUStorage is the host Storage. It is also the host side of the copies
// done by Backend.CopyFromHost and Backend.CopyToHost.
type CPUStorage struct {
	dtype DType
	f32   []float32
	f64   []float64
}

func newCPUStorage(dtype DType, n int) *CPUStorage {
	if dtype == Float32 {
		return &CPUStorage{dtype: dtype, f32: make([]float32, n)}
	}
	return &CPUStorage{dtype: Float64, f64: make([]float64, n)}
}

// DType implements Storage.
func (s *CPUStorage) DType() DType { return s.dtype }

// Len implements Storage.
func (s *CPUStorage) Len() int { return len(s.f32) + len(s.f64) }

// Float32 returns the backing slice of a float32 storage (nil otherwise).
// Kernels may write to it only when it belongs to their output tensor.
func (s *CPUStorage) Float32() []float32 { return s.f32 }

// Float64 returns the backing slice of a float64 storage (nil otherwise).
// Kernels may write to it only when it belongs to their output tensor.
func (s *CPUStorage) Float64() []float64 { return s.f64 }

// Backend manages memory for one DeviceType. The CUDA package implements it
// and calls RegisterBackend from its init function. All methods must be safe
// for concurrent use; Free may be called from a runtime cleanup goroutine.
// Offsets and counts are in elements; the host and device storages passed
// to a copy always have the same dtype and are large enough.
type Backend interface {
	// Type is the device type served, e.g. DeviceCUDA.
	Type() DeviceType
	// Name is a short name for messages, e.g. "cuda".
	Name() string
	// Alloc allocates storage for n (possibly 0) elements of dtype on device
	// d. The contents may be uninitialized.
	Alloc(d Device, dtype DType, n int) (Storage, error)
	// Free releases s. It is called exactly once per storage. It must not
	// release memory still used by queued work (cudaFree and stream-ordered
	// frees on the compute stream both satisfy this).
	Free(s Storage) error
	// CopyFromHost copies n elements from src[srcOff:] to dst[dstOff:].
	CopyFromHost(dst Storage, dstOff int, src *CPUStorage, srcOff, n int) error
	// CopyToHost copies n elements from src[srcOff:] to dst[dstOff:]; the
	// data must be in dst when it returns.
	CopyToHost(dst *CPUStorage, dstOff int, src Storage, srcOff, n int) error
	// Synchronize waits until all work queued on device d has completed.
	Synchronize(d Device) error
}

var backends = struct {
	mu sync.RWMutex
	m  [numDeviceTypes]Backend
}{m: [numDeviceTypes]Backend{DeviceCPU: cpuBackend{}}}

// RegisterBackend makes b the backend for b.Type(). It is meant to be called
// from an init function and panics if b is nil, its type is CPU (built in)
// or unknown, or a backend for that type is already registered, like
// database/sql.Register.
func RegisterBackend(b Backend) {
	if b == nil {
		panic("ops.RegisterBackend: backend is nil")
	}
	t := b.Type()
	if t == DeviceCPU || t >= numDeviceTypes {
		panic(fmt.Sprintf("ops.RegisterBackend: cannot register a backend for device type %v", t))
	}
	backends.mu.Lock()
	defer backends.mu.Unlock()
	if backends.m[t] != nil {
		panic(fmt.Sprintf("ops.RegisterBackend: backend for %v already registered", t))
	}
	backends.m[t] = b
}

func backendFor(op string, d Device) (Backend, error) {
	if !d.valid() {
		return nil, opErr(op, "", ErrDevice, "device %v is invalid", d)
	}
	backends.mu.RLock()
	b := backends.m[d.Type]
	backends.mu.RUnlock()
	if b == nil {
		return nil, opErr(op, "", ErrNoBackend, "no backend registered for device %v (import the package providing it, e.g. ops/cuda)", d)
	}
	return b, nil
}

// Synchronize waits for all work queued on device d to complete.
func Synchronize(d Device) error {
	b, err := backendFor("Synchronize", d)
	if err != nil {
		return err
	}
	return b.Synchronize(d)
}

// cpuBackend is the built-in host backend.
type cpuBackend struct{}

func (cpuBackend) Type() DeviceType { return DeviceCPU }
func (cpuBackend) Name() string     { return "cpu" }
func (cpuBackend) Alloc(_ Device, dtype DType, n int) (Storage, error) {
	return newCPUStorage(dtype, n), nil
}
func (cpuBackend) Free(Storage) error { return nil }
func (cpuBackend) CopyFromHost(dst Storage, dstOff int, src *CPUStorage, srcOff, n int) error {
	return cpuBackend{}.CopyToHost(dst.(*CPUStorage), dstOff, src, srcOff, n)
}
func (cpuBackend) CopyToHost(dst *CPUStorage, dstOff int, src Storage, srcOff, n int) error {
	s := src.(*CPUStorage)
	if s.dtype == Float32 {
		copy(dst.f32[dstOff:dstOff+n], s.f32[srcOff:srcOff+n])
	} else {
		copy(dst.f64[dstOff:dstOff+n], s.f64[srcOff:srcOff+n])
	}
	return nil
}
func (cpuBackend) Synchronize(Device) error { return nil }
