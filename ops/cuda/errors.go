package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import (
	"errors"
	"fmt"
)

// maxDims is the most dimensions a non-contiguous tensor may have, after
// merging dimensions that are contiguous with each other, for the CUDA
// kernels to index it (C's OPSCUDA_MAX_DIMS).
const maxDims = C.OPSCUDA_MAX_DIMS

// ErrNoDevice is wrapped by the errors returned when there is no usable CUDA
// device: no GPU, no driver, a device index out of range, or a build
// without CUDA.
var ErrNoDevice = errors.New("cuda: no CUDA device")

// ErrNotCapturable is wrapped by the error of an operation that cannot be
// recorded into a CUDA graph (a copy through pageable host memory, a
// synchronization, reading a tensor of the capture on another stream), done
// while its stream is being captured; the capture then fails with it.
var ErrNotCapturable = errors.New("cuda: operation not allowed during graph capture")

// ErrClosed is wrapped by the errors of using a closed Stream, Event,
// Pinned buffer or Graph.
var ErrClosed = errors.New("cuda: use of a closed object")

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
// errors.Is(err, ErrNoDevice) holds for it, or that cuBLASLt could not be
// loaded (errors.Is(err, ErrNoCuBLAS)).
func (e *Error) Is(target error) bool {
	if target == ErrNoCuBLAS {
		return e.Code == C.OPSCUDA_ERROR_CUBLAS_MISSING
	}
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
