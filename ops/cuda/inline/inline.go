// Package inline loads CUDA kernels at run time and launches them on ops tensors: the Go analogue
// of torch.utils.cpp_extension.load_inline for prebuilt images. An image is a cubin, a fatbin or
// PTX text (as nvcc -cubin/-fatbin/-ptx writes them); PTX is compiled by the driver for the GPU at
// hand. Loading and launching go through the CUDA driver API (gorgonia.org/cu) in the device's
// primary context, the one the CUDA runtime behind ops/cuda uses, so kernels read and write the
// memory of CUDA tensors directly. Kernels launch on the stream chosen with cuda.WithStream
// (Kernel.LaunchContext) or on a given stream (Kernel.LaunchOn), ordered with ops like an op's
// kernel: after the work that produced their tensor arguments on other streams, and before the
// later work of those streams.
//
// This package links libcuda, and gorgonia.org/cu's package initialisation exits the process when
// the driver cannot be initialised (no GPU, no driver). Import it only in programs that require a
// GPU; programs that must also run without one use ops/cuda alone.
package inline

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"runtime"
	"sync"
	"unsafe"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	opscuda "github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"gorgonia.org/cu"
)

// ErrClosed is returned when a closed Module or one of its kernels is used.
var ErrClosed = errors.New("inline: module is closed")

// Dim3 is a grid or block size; zero fields count as 1.
type Dim3 struct{ X, Y, Z int }

func (d Dim3) xyz() (int, int, int) {
	one := func(v int) int {
		if v == 0 {
			return 1
		}
		return v
	}
	return one(d.X), one(d.Y), one(d.Z)
}

// Module is a loaded CUDA module on one device.
type Module struct {
	device int
	ctx    cu.CUContext
	mu     sync.Mutex // guards mod and closed
	mod    cu.Module
	closed bool
}

// withContext runs f on a locked OS thread whose current context is the device's primary context.
func withContext(ctx cu.CUContext, f func() error) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := cu.SetCurrentContext(ctx); err != nil {
		return fmt.Errorf("inline: setting the primary context current: %w", err)
	}
	return f()
}

// Load loads an image (cubin, fatbin or NUL-free PTX text) onto CUDA device `device`.
func Load(device int, image []byte) (*Module, error) {
	if len(image) == 0 {
		return nil, errors.New("inline: Load: empty image")
	}
	n, err := cu.NumDevices()
	if err != nil {
		return nil, fmt.Errorf("inline: Load: counting devices: %w", err)
	}
	if device < 0 || device >= n {
		return nil, fmt.Errorf("inline: Load: device %d does not exist (%d CUDA devices)", device, n)
	}
	ctx, err := cu.Device(device).RetainPrimaryCtx()
	if err != nil {
		return nil, fmt.Errorf("inline: Load: retaining the primary context of device %d: %w", device, err)
	}
	m := &Module{device: device, ctx: ctx}
	err = withContext(ctx, func() error {
		var err error
		m.mod, err = cu.LoadData(string(image))
		return err
	})
	if err != nil {
		_ = cu.Device(device).ReleasePrimaryCtx()
		return nil, fmt.Errorf("inline: Load: loading a %d-byte image on device %d: %w", len(image), device, err)
	}
	return m, nil
}

// LoadFile loads the image in a file; see Load.
func LoadFile(device int, path string) (*Module, error) {
	image, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("inline: LoadFile: %w", err)
	}
	return Load(device, image)
}

// Device returns the CUDA device the module is loaded on.
func (m *Module) Device() ops.Device { return ops.CUDA(m.device) }

// Close unloads the module; its kernels can no longer be launched. Closing twice is a no-op.
func (m *Module) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil
	}
	m.closed = true
	err := withContext(m.ctx, func() error { return m.mod.Unload() })
	if rerr := cu.Device(m.device).ReleasePrimaryCtx(); err == nil {
		err = rerr
	}
	if err != nil {
		return fmt.Errorf("inline: Close: %w", err)
	}
	return nil
}

// Kernel is a __global__ function of a loaded module.
type Kernel struct {
	m    *Module
	name string
	fn   cu.Function
}

// Kernel looks up a kernel by its (extern "C" or mangled) name.
func (m *Module) Kernel(name string) (*Kernel, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	var fn cu.Function
	err := withContext(m.ctx, func() error {
		var err error
		fn, err = m.mod.Function(name)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("inline: kernel %q: %w", name, err)
	}
	return &Kernel{m: m, name: name, fn: fn}, nil
}

// Launch is LaunchContext with context.Background(): it enqueues the kernel on the module's
// device's default stream.
func (k *Kernel) Launch(grid, block Dim3, sharedMem int, args ...any) error {
	return k.LaunchContext(context.Background(), grid, block, sharedMem, args...)
}

// LaunchContext enqueues the kernel on the stream ctx chooses for the module's device
// (cuda.WithStream; the device's default stream when ctx names none); see LaunchOn.
func (k *Kernel) LaunchContext(ctx context.Context, grid, block Dim3, sharedMem int, args ...any) error {
	return k.LaunchOn(opscuda.StreamFrom(ctx, k.m.device), grid, block, sharedMem, args...)
}

// LaunchOn enqueues the kernel on stream s of the module's device. Like an op's kernel, the
// launch waits (on the device) for the work queued so far on the streams of its tensor
// arguments, their memory is kept until the kernel has run, and the later work of those streams
// waits for the kernel (it may have written them). Arguments, in the kernel's parameter order:
//   - *ops.Tensor: a contiguous CUDA tensor on the module's device, passed as a pointer to its
//     first element (call Contiguous first for views);
//   - float32, float64, int32, int64, int, uint32, uint64, uintptr: passed by value.
//
// Errors from the kernel's execution show at the next synchronisation (ops.Synchronize).
func (k *Kernel) LaunchOn(s *opscuda.Stream, grid, block Dim3, sharedMem int, args ...any) error {
	if s == nil {
		return fmt.Errorf("inline: launching %s: nil stream: %w", k.name, ops.ErrNil)
	}
	if s.Device() != k.m.Device() {
		return fmt.Errorf("inline: launching %s on %v: the module is on %v: %w", k.name, s, k.m.Device(), ops.ErrDevice)
	}
	params := make([]uint64, len(args))
	var tensors []*ops.Tensor
	for i, a := range args {
		v, err := k.param(i, a)
		if err != nil {
			return err
		}
		params[i] = v
		if t, ok := a.(*ops.Tensor); ok {
			tensors = append(tensors, t)
		}
	}
	ptrs := make([]unsafe.Pointer, len(params))
	for i := range params {
		ptrs[i] = unsafe.Pointer(&params[i])
	}
	gx, gy, gz := grid.xyz()
	bx, by, bz := block.xyz()
	if err := s.Use(tensors...); err != nil {
		return fmt.Errorf("inline: launching %s: %w", k.name, err)
	}
	k.m.mu.Lock()
	defer k.m.mu.Unlock()
	if k.m.closed {
		return ErrClosed
	}
	err := withContext(k.m.ctx, func() error {
		return k.fn.Launch(gx, gy, gz, bx, by, bz, sharedMem, driverStream(s), ptrs)
	})
	if err != nil {
		return fmt.Errorf("inline: launching %s<<<(%d,%d,%d), (%d,%d,%d), %d>>> on %v: %w", k.name, gx, gy, gz, bx, by, bz, sharedMem, s, err)
	}
	if err := s.Publish(tensors...); err != nil {
		return fmt.Errorf("inline: after launching %s: %w", k.name, err)
	}
	return nil
}

// driverStream returns s as a driver-API stream. The runtime's cudaStream_t is the driver's
// CUstream; gorgonia.org/cu (v0.9.6) makes its Stream, a struct of one CUstream, only from
// streams it creates, so the handle is placed in one (the check program checks the size).
// The default stream's handle 0 is the NULL stream, which is the legacy default stream in the
// driver API.
func driverStream(s *opscuda.Stream) cu.Stream {
	h := s.Handle()
	return *(*cu.Stream)(unsafe.Pointer(&h))
}

// param turns one launch argument into the 8 bytes gorgonia.org/cu copies per parameter; values
// narrower than 8 bytes sit in the low bytes, which is where a little-endian kernel reads them.
func (k *Kernel) param(i int, a any) (uint64, error) {
	switch v := a.(type) {
	case *ops.Tensor:
		return k.tensorParam(i, v)
	case float32:
		return uint64(math.Float32bits(v)), nil
	case float64:
		return math.Float64bits(v), nil
	case int32:
		return uint64(uint32(v)), nil
	case uint32:
		return uint64(v), nil
	case int64:
		return uint64(v), nil
	case int:
		return uint64(int64(v)), nil
	case uint64:
		return v, nil
	case uintptr:
		return uint64(v), nil
	default:
		return 0, fmt.Errorf("inline: %s: argument %d has type %T; want *ops.Tensor, float32, float64, int32, int64, int, uint32, uint64 or uintptr", k.name, i, a)
	}
}

func (k *Kernel) tensorParam(i int, t *ops.Tensor) (uint64, error) {
	if t == nil {
		return 0, fmt.Errorf("inline: %s: argument %d is a nil tensor: %w", k.name, i, ops.ErrNil)
	}
	if d := t.Device(); d != k.m.Device() {
		return 0, fmt.Errorf("inline: %s: argument %d is on %v, the module is on %v: %w", k.name, i, d, k.m.Device(), ops.ErrDevice)
	}
	if !t.IsContiguous() {
		return 0, fmt.Errorf("inline: %s: argument %d (shape %v, strides %v) is not contiguous; pass t.Contiguous(): %w", k.name, i, t.Shape(), t.Strides(), ops.ErrArg)
	}
	st, ok := t.Storage().(*opscuda.Storage)
	if !ok {
		return 0, fmt.Errorf("inline: %s: argument %d has no CUDA storage (freed?): %w", k.name, i, ops.ErrFreed)
	}
	return uint64(st.Ptr() + uintptr(t.Offset()*t.DType().Size())), nil
}
