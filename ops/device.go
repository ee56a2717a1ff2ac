package ops

import (
	"context"
	"fmt"
	"sync"

	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

// DType is the element type of a tensor.
type DType uint8

// Supported dtypes. The zero DType is invalid. The values are those of the
// CUDA backend's C ABI (OPSCUDA_FLOAT32 ... in ops/cuda/csrc/opscuda.h).
//
// The 16-bit dtypes store half.Float16 and half.BFloat16 values (CUDA's
// __half and __nv_bfloat16); kernels load them as float32, compute in
// float32 (reductions and softmax accumulate in float32 or wider) and round
// the result to nearest even. Ops never promote: all tensor arguments of an
// op have one dtype, and AsType converts explicitly.
const (
	Float32  DType = iota + 1 // 32-bit IEEE 754 float
	Float64                   // 64-bit IEEE 754 float
	Float16                   // 16-bit IEEE 754 binary16 float (half.Float16)
	BFloat16                  // bfloat16, the upper half of a float32 (half.BFloat16)
	Int32                     // 32-bit signed integer (int32): token indices and targets, never computed on by float ops
)

// String returns "float32", "float64", "float16", "bfloat16" or "int32".
func (d DType) String() string {
	switch d {
	case Float32:
		return "float32"
	case Float64:
		return "float64"
	case Float16:
		return "float16"
	case BFloat16:
		return "bfloat16"
	case Int32:
		return "int32"
	}
	return fmt.Sprintf("DType(%d)", uint8(d))
}

// goName returns the name of d's constant in this package, for messages.
func (d DType) goName() string {
	switch d {
	case Float32:
		return "Float32"
	case Float64:
		return "Float64"
	case Float16:
		return "Float16"
	case BFloat16:
		return "BFloat16"
	case Int32:
		return "Int32"
	}
	return d.String()
}

// Size returns the size of one element in bytes (0 for an invalid dtype).
func (d DType) Size() int {
	switch d {
	case Float32, Int32:
		return 4
	case Float64:
		return 8
	case Float16, BFloat16:
		return 2
	}
	return 0
}

func (d DType) valid() bool { return d >= Float32 && d <= Int32 }

// isFloat reports whether d is one of the floating-point dtypes, the ones
// ops (Op) compute on.
func (d DType) isFloat() bool { return d >= Float32 && d <= BFloat16 }

// isHalf reports whether d is one of the 16-bit dtypes.
func (d DType) isHalf() bool { return d == Float16 || d == BFloat16 }

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
	f16   []half.Float16
	bf16  []half.BFloat16
	i32   []int32
}

func newCPUStorage(dtype DType, n int) *CPUStorage {
	switch dtype {
	case Float32:
		return &CPUStorage{dtype: dtype, f32: make([]float32, n)}
	case Float16:
		return &CPUStorage{dtype: dtype, f16: make([]half.Float16, n)}
	case BFloat16:
		return &CPUStorage{dtype: dtype, bf16: make([]half.BFloat16, n)}
	case Int32:
		return &CPUStorage{dtype: dtype, i32: make([]int32, n)}
	}
	return &CPUStorage{dtype: Float64, f64: make([]float64, n)}
}

// DType implements Storage.
func (s *CPUStorage) DType() DType { return s.dtype }

// Len implements Storage.
func (s *CPUStorage) Len() int {
	return len(s.f32) + len(s.f64) + len(s.f16) + len(s.bf16) + len(s.i32)
}

// Float32 returns the backing slice of a float32 storage (nil otherwise).
// Kernels may write to it only when it belongs to their output tensor.
func (s *CPUStorage) Float32() []float32 { return s.f32 }

// Float64 returns the backing slice of a float64 storage (nil otherwise).
// Kernels may write to it only when it belongs to their output tensor.
func (s *CPUStorage) Float64() []float64 { return s.f64 }

// Float16 returns the backing slice of a float16 storage (nil otherwise).
// Kernels may write to it only when it belongs to their output tensor.
func (s *CPUStorage) Float16() []half.Float16 { return s.f16 }

// BFloat16 returns the backing slice of a bfloat16 storage (nil otherwise).
// Kernels may write to it only when it belongs to their output tensor.
func (s *CPUStorage) BFloat16() []half.BFloat16 { return s.bf16 }

// Int32 returns the backing slice of an int32 storage (nil otherwise).
// Kernels may write to it only when it belongs to their output tensor.
func (s *CPUStorage) Int32() []int32 { return s.i32 }

// Backend manages memory for one DeviceType. The CUDA package implements it
// and calls RegisterBackend from its init function. All methods must be safe
// for concurrent use; Free may be called from a runtime cleanup goroutine.
// Offsets and counts are in elements; the host and device storages passed
// to a copy always have the same dtype and are large enough.
//
// A backend with several devices may also have the method
//
//	CopyPeer(dst Storage, dstOff int, src Storage, srcOff, n int) error
//
// that copies n elements from src[srcOff:] to dst[dstOff:] (storages of
// two of its devices, same dtype) without staging through host memory,
// queued with dst's work after the work queued so far on src's (ops/cuda:
// peer copies between GPUs); Tensor.To then uses it between its devices.
//
// A backend with one queue of work per device ignores the contexts and
// orders nothing; one that queues work on several streams (ops/cuda) lets
// the context of an op choose the stream its output is allocated for and
// its kernel runs on, and orders each kernel after the work that produced
// its inputs.
type Backend interface {
	// Type is the device type served, e.g. DeviceCUDA.
	Type() DeviceType
	// Name is a short name for messages, e.g. "cuda".
	Name() string
	// Alloc allocates storage for n (possibly 0) elements of dtype on device
	// d, for the work that ctx selects (a stream). The contents may be
	// uninitialized.
	Alloc(ctx context.Context, d Device, dtype DType, n int) (Storage, error)
	// Free releases s. It is called exactly once per storage. It must not
	// release memory still used by queued work (cudaFree and stream-ordered
	// frees on the storage's stream both satisfy this).
	Free(s Storage) error
	// CopyFromHost copies n elements from src[srcOff:] to dst[dstOff:],
	// ordered with the work of dst's stream.
	CopyFromHost(dst Storage, dstOff int, src *CPUStorage, srcOff, n int) error
	// CopyToHost copies n elements from src[srcOff:] to dst[dstOff:],
	// after the work queued on src's stream; the data must be in dst when
	// it returns.
	CopyToHost(dst *CPUStorage, dstOff int, src Storage, srcOff, n int) error
	// Order is called before a kernel that writes out reads in. It orders
	// the work of out's stream after the work queued so far on in's stream
	// (if they differ) and keeps in's memory from reuse until that kernel
	// has run (PyTorch's record_stream). A backend with one queue returns
	// nil.
	Order(in, out Storage) error
	// Synchronize waits until all work queued on device d has completed,
	// or until ctx is done: then it returns ctx.Err() (the work goes on).
	Synchronize(ctx context.Context, d Device) error
}

// peerCopier is implemented by a Backend that copies between two of its
// devices without staging through host memory (ops/cuda: peer copies
// between GPUs), with a CopyPeer method (see Backend). Tensor.To uses it for
// a copy between two devices of the backend; without it such copies go
// through host memory.
type peerCopier interface {
	// CopyPeer copies n elements from src[srcOff:] to dst[dstOff:] (storages
	// of two devices of the backend, same dtype), queued with dst's work
	// after the work queued so far on src's, and before src's later work.
	CopyPeer(dst Storage, dstOff int, src Storage, srcOff, n int) error
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

// Synchronize waits until all work queued on device d has completed, or
// until ctx is done: then it returns ctx.Err(), and the work goes on (its
// tensors keep their memory until it completes). It is the device-wide
// wait; with ops/cuda, cuda.Stream.Synchronize waits for one stream and
// cuda.Event.Synchronize for one point in a stream.
func Synchronize(ctx context.Context, d Device) error {
	if err := checkCtx("Synchronize", ctx); err != nil {
		return err
	}
	b, err := backendFor("Synchronize", d)
	if err != nil {
		return err
	}
	return b.Synchronize(ctx, d)
}

// cpuBackend is the built-in host backend.
type cpuBackend struct{}

func (cpuBackend) Type() DeviceType { return DeviceCPU }
func (cpuBackend) Name() string     { return "cpu" }
func (cpuBackend) Alloc(_ context.Context, _ Device, dtype DType, n int) (Storage, error) {
	return newCPUStorage(dtype, n), nil
}
func (cpuBackend) Free(Storage) error { return nil }
func (cpuBackend) CopyFromHost(dst Storage, dstOff int, src *CPUStorage, srcOff, n int) error {
	return cpuBackend{}.CopyToHost(dst.(*CPUStorage), dstOff, src, srcOff, n)
}
func (cpuBackend) CopyToHost(dst *CPUStorage, dstOff int, src Storage, srcOff, n int) error {
	s := src.(*CPUStorage)
	switch s.dtype {
	case Float32:
		copy(dst.f32[dstOff:dstOff+n], s.f32[srcOff:srcOff+n])
	case Float16:
		copy(dst.f16[dstOff:dstOff+n], s.f16[srcOff:srcOff+n])
	case BFloat16:
		copy(dst.bf16[dstOff:dstOff+n], s.bf16[srcOff:srcOff+n])
	case Int32:
		copy(dst.i32[dstOff:dstOff+n], s.i32[srcOff:srcOff+n])
	default:
		copy(dst.f64[dstOff:dstOff+n], s.f64[srcOff:srcOff+n])
	}
	return nil
}
func (cpuBackend) Order(_, _ Storage) error                  { return nil }
func (cpuBackend) Synchronize(context.Context, Device) error { return nil }
