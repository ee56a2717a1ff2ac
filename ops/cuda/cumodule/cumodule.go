// Package cumodule loads device images into CUDA modules at run time and launches their kernels on
// ops tensors. An image is a cubin, a fatbin or PTX text, built ahead of time (cu_device_image,
// nvcc -cubin/-fatbin/-ptx) or compiled at run time by package ops/cuda/jit (ops/cuda/jit/jitload
// does both, the analogue of torch.utils.cpp_extension.load_inline); PTX is compiled by the driver
// for the GPU at hand. Loading and launching go through the CUDA driver API in the device's
// primary context, the one the CUDA runtime behind ops/cuda uses, so kernels read and write the
// memory of CUDA tensors directly. Kernel.Launch(ctx, ...) queues a kernel on the stream the context chooses
// (cuda.WithStream; the device's default stream for context.Background()), ordered with ops like
// an op's kernel: after the work that produced its tensor arguments on other streams, and before
// the later work of those streams.
//
// Nothing here links the driver: its entry points come from the CUDA runtime (static by default),
// which loads libcuda.so.1 on first use. A program that imports this package starts on a machine
// without a GPU or driver and runs its CPU path; Load then returns an error wrapping
// cuda.ErrNoDevice that says why (as ops/cuda's DeviceCount does).
package cumodule

/*
#include <stdlib.h>

#include "ops/cuda/cumodule/csrc/driver.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"sync"
	"unsafe"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	opscuda "github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// ErrClosed is returned when a closed Module or one of its kernels is used.
var ErrClosed = errors.New("cumodule: module is closed")

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
	ctx    C.cumodule_handle // the device's primary context
	mu     sync.Mutex        // guards mod and closed
	mod    C.cumodule_handle
	closed bool
}

// driverError is a CUresult from the driver API.
type driverError struct {
	op   string // the driver function, e.g. "cuModuleLoadData"
	code int
	name string // e.g. "CUDA_ERROR_INVALID_IMAGE" (cuGetErrorName)
	msg  string // its description (cuGetErrorString)
}

func (e *driverError) Error() string {
	if e.name == "" {
		return fmt.Sprintf("%s: CUresult %d", e.op, e.code)
	}
	return fmt.Sprintf("%s: %s (%s)", e.op, e.name, e.msg)
}

// Is reports whether e means that there is no usable device (errors.Is(err, cuda.ErrNoDevice)).
func (e *driverError) Is(target error) bool {
	if target != opscuda.ErrNoDevice {
		return false
	}
	switch e.code {
	case 34, 100, 101: // CUDA_ERROR_STUB_LIBRARY, CUDA_ERROR_NO_DEVICE, CUDA_ERROR_INVALID_DEVICE
		return true
	}
	return false
}

// driverCheck turns a CUresult into a *driverError (nil for CUDA_SUCCESS).
func driverCheck(op string, code C.int) error {
	if code == 0 {
		return nil
	}
	return &driverError{
		op:   op,
		code: int(code),
		name: C.GoString(C.cumodule_driver_error_name(code)),
		msg:  C.GoString(C.cumodule_driver_error_string(code)),
	}
}

// contexts holds the primary context of each device that Load has set up.
var contexts struct {
	sync.Mutex
	byDevice map[int]C.cumodule_handle
}

// primaryContext initialises the runtime and the driver's entry points for a device and returns
// its primary context.
func primaryContext(device int) (C.cumodule_handle, error) {
	contexts.Lock()
	defer contexts.Unlock()
	if ctx, ok := contexts.byDevice[device]; ok {
		return ctx, nil
	}
	var ctx C.cumodule_handle
	var derr C.int
	if code := C.cumodule_init(C.int(device), &ctx, &derr); code != 0 {
		return 0, &opscuda.Error{
			Op:   fmt.Sprintf("setting up the driver API on device %d", device),
			Code: int(code),
			Name: C.GoString(C.cumodule_runtime_error_name(code)),
			Msg:  C.GoString(C.cumodule_runtime_error_string(code)),
		}
	}
	if err := driverCheck("cuDevicePrimaryCtxRetain", derr); err != nil {
		return 0, err
	}
	if contexts.byDevice == nil {
		contexts.byDevice = map[int]C.cumodule_handle{}
	}
	contexts.byDevice[device] = ctx
	return ctx, nil
}

// Load loads an image (cubin, fatbin or NUL-free PTX text) onto CUDA device `device`. Without a
// usable device (no GPU, no driver, a driver older than the toolkit, an index out of range) the
// error wraps cuda.ErrNoDevice.
func Load(device int, image []byte) (*Module, error) {
	if len(image) == 0 {
		return nil, errors.New("cumodule: Load: empty image")
	}
	n, err := opscuda.DeviceCount()
	if err != nil {
		return nil, fmt.Errorf("cumodule: Load: %w", err)
	}
	if device < 0 || device >= n {
		return nil, fmt.Errorf("cumodule: Load: device %d does not exist (%d CUDA devices): %w", device, n, opscuda.ErrNoDevice)
	}
	ctx, err := primaryContext(device)
	if err != nil {
		return nil, fmt.Errorf("cumodule: Load: %w", err)
	}
	// PTX is read up to a NUL; cubins and fatbins carry their sizes. The driver copies the image.
	buf := C.malloc(C.size_t(len(image) + 1))
	if buf == nil {
		return nil, fmt.Errorf("cumodule: Load: out of host memory for a %d-byte image", len(image))
	}
	defer C.free(buf)
	b := unsafe.Slice((*byte)(buf), len(image)+1)
	b[copy(b, image)] = 0
	m := &Module{device: device, ctx: ctx}
	if err := driverCheck("cuModuleLoadData", C.cumodule_module_load(ctx, buf, &m.mod)); err != nil {
		return nil, fmt.Errorf("cumodule: Load: loading a %d-byte image on device %d: %w", len(image), device, err)
	}
	return m, nil
}

// LoadFile loads the image in a file; see Load.
func LoadFile(device int, path string) (*Module, error) {
	image, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cumodule: LoadFile: %w", err)
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
	if err := driverCheck("cuModuleUnload", C.cumodule_module_unload(m.ctx, m.mod)); err != nil {
		return fmt.Errorf("cumodule: Close: %w", err)
	}
	return nil
}

// Kernel is a __global__ function of a loaded module.
type Kernel struct {
	m    *Module
	name string
	fn   C.cumodule_handle
}

// Kernel looks up a kernel by its (extern "C" or mangled) name.
func (m *Module) Kernel(name string) (*Kernel, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var fn C.cumodule_handle
	if err := driverCheck("cuModuleGetFunction", C.cumodule_module_function(m.ctx, m.mod, cname, &fn)); err != nil {
		return nil, fmt.Errorf("cumodule: kernel %q: %w", name, err)
	}
	return &Kernel{m: m, name: name, fn: fn}, nil
}

// Launch queues the kernel on the stream ctx chooses for the module's device (cuda.WithStream;
// the device's default stream when ctx names none). Like an op's kernel, the launch waits (on the
// device) for the work queued so far on the streams of its tensor arguments, their memory is kept
// until the kernel has run, and the later work of those streams waits for the kernel (it may have
// written them): cuda.NewLaunch and Launch.Check. Arguments, in the kernel's parameter order:
//   - *ops.Tensor: a contiguous CUDA tensor on the module's device, passed as a pointer to its
//     first element (call Contiguous first for views);
//   - float32, float64, int32, int64, int, uint32, uint64, uintptr: passed by value.
//
// Grid and block sizes and sharedMem must be in [0, 2^32) (zero sizes count as 1). Errors from
// the kernel's execution show at the next synchronisation (ops.Synchronize).
func (k *Kernel) Launch(ctx context.Context, grid, block Dim3, sharedMem int, args ...any) error {
	if ctx == nil {
		return fmt.Errorf("cumodule: launching %s: context is nil (use context.Background()): %w", k.name, ops.ErrArg)
	}
	params := make([]uint64, len(args))
	var tensors []*ops.Tensor
	var at []int // the parameter of each tensor
	for i, a := range args {
		if t, ok := a.(*ops.Tensor); ok {
			if err := k.checkTensor(i, t); err != nil {
				return err
			}
			tensors, at = append(tensors, t), append(at, i)
			continue
		}
		v, err := k.param(i, a)
		if err != nil {
			return err
		}
		params[i] = v
	}
	if len(tensors) == 0 {
		return k.launchOn(opscuda.StreamFrom(ctx, k.m.device).Handle(), grid, block, sharedMem, params)
	}
	l, err := opscuda.NewLaunch(ctx, tensors...)
	if err != nil {
		return fmt.Errorf("cumodule: launching %s: %w", k.name, err)
	}
	for j, i := range at {
		params[i] = uint64(l.Ptr[j])
	}
	return k.LaunchWith(l, grid, block, sharedMem, params)
}

// LaunchWith is Launch for a launcher that orders its tensors itself with cuda.NewLaunch, called
// often with one parameter layout (package ops/fuse/fusecuda's): it queues the kernel on l's
// stream with params, each parameter's 8 bytes as Launch passes them (a tensor as its address
// from l.Ptr; a value in the low bytes, math.Float64bits for a double), then finishes l with
// l.Check, which orders the later work of the tensors' streams after the kernel. Nothing is
// converted or boxed per argument; l must come from NewLaunch with a context choosing a stream
// of the module's device.
func (k *Kernel) LaunchWith(l *opscuda.Launch, grid, block Dim3, sharedMem int, params []uint64) error {
	if l == nil {
		return fmt.Errorf("cumodule: launching %s: the cuda.Launch is nil (make it with cuda.NewLaunch): %w", k.name, ops.ErrNil)
	}
	if l.Device != k.m.device {
		return fmt.Errorf("cumodule: launching %s: the launch's tensors are on cuda:%d, the module is on cuda:%d: %w", k.name, l.Device, k.m.device, ops.ErrDevice)
	}
	if err := k.launchOn(l.Stream, grid, block, sharedMem, params); err != nil {
		return err
	}
	// The launch succeeded (its CUresult was checked): Check(0) orders the tensors' streams after it.
	if err := l.Check(k.name, 0); err != nil {
		return fmt.Errorf("cumodule: after launching %s: %w", k.name, err)
	}
	return nil
}

// launchOn queues the kernel on the stream with handle stream.
func (k *Kernel) launchOn(stream uintptr, grid, block Dim3, sharedMem int, params []uint64) error {
	gx, gy, gz := grid.xyz()
	bx, by, bz := block.xyz()
	for _, v := range [...]int{gx, gy, gz, bx, by, bz, sharedMem} {
		if v < 0 || v > math.MaxUint32 {
			return fmt.Errorf("cumodule: launching %s: grid %+v, block %+v, shared memory %d: sizes must be in [0, 2^32): %w", k.name, grid, block, sharedMem, ops.ErrArg)
		}
	}
	var p *C.ulonglong
	if len(params) > 0 {
		p = (*C.ulonglong)(unsafe.Pointer(&params[0]))
	}
	k.m.mu.Lock()
	defer k.m.mu.Unlock()
	if k.m.closed {
		return ErrClosed
	}
	code := C.cumodule_launch(k.m.ctx, k.fn, C.uint(gx), C.uint(gy), C.uint(gz), C.uint(bx), C.uint(by), C.uint(bz),
		C.uint(sharedMem), C.cumodule_handle(stream), p, C.int(len(params)))
	if err := driverCheck("cuLaunchKernel", code); err != nil {
		return fmt.Errorf("cumodule: launching %s<<<(%d,%d,%d), (%d,%d,%d), %d>>> on stream %#x of cuda:%d: %w", k.name, gx, gy, gz, bx, by, bz, sharedMem,
			stream, k.m.device, err)
	}
	return nil
}

// param turns one launch argument into the 8 bytes passed for it; values narrower than 8 bytes
// sit in the low bytes, which is where a little-endian kernel reads them.
func (k *Kernel) param(i int, a any) (uint64, error) {
	switch v := a.(type) {
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
		return 0, fmt.Errorf("cumodule: %s: argument %d has type %T; want *ops.Tensor, float32, float64, int32, int64, int, uint32, uint64 or uintptr", k.name, i, a)
	}
}

// checkTensor checks tensor argument i: non-nil, contiguous and on the module's device.
func (k *Kernel) checkTensor(i int, t *ops.Tensor) error {
	if t == nil {
		return fmt.Errorf("cumodule: %s: argument %d is a nil tensor: %w", k.name, i, ops.ErrNil)
	}
	if d := t.Device(); d != k.m.Device() {
		return fmt.Errorf("cumodule: %s: argument %d is on %v, the module is on %v: %w", k.name, i, d, k.m.Device(), ops.ErrDevice)
	}
	if !t.IsContiguous() {
		return fmt.Errorf("cumodule: %s: argument %d (shape %v, strides %v) is not contiguous; pass t.Contiguous(ctx): %w", k.name, i, t.Shape(), t.Strides(), ops.ErrArg)
	}
	return nil
}
