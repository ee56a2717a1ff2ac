// Package rdc calls a diamond of relocatable-device-code targets (top -> left, right -> base, each
// its own cu_library, the top one an rdc part) from Go: go_cuda_library device-links them once.
package rdc

// #include "tests/rdc/diamond.h"
import "C"

import (
	"fmt"
	"unsafe"
)

// Error is a CUDA runtime error.
type Error struct {
	Code int
	Name string
}

func (e *Error) Error() string { return fmt.Sprintf("CUDA error %d (%s)", e.Code, e.Name) }

// NoDevice reports whether the error means there is no usable GPU or driver
// (cudaErrorNoDevice, cudaErrorInsufficientDriver).
func (e *Error) NoDevice() bool { return e.Code == 100 || e.Code == 35 }

func cudaErr(code C.int) error {
	if code == 0 {
		return nil
	}
	return &Error{Code: int(code), Name: C.GoString(C.rdc_error_name(code))}
}

// DeviceCount returns the number of CUDA devices.
func DeviceCount() (int, error) {
	var n C.int
	err := cudaErr(C.rdc_device_count(&n))
	return int(n), err
}

// SetFactor sets the __device__ variable of the shared base target.
func SetFactor(f float32) error { return cudaErr(C.rdc_set_factor(C.float(f))) }

// Diamond returns 4*factor*x[i] + 1 for each x[i], computed through left_op and right_op, which
// both call base's scaled().
func Diamond(x []float32) ([]float32, error) {
	out := make([]float32, len(x))
	if len(x) == 0 {
		return out, nil
	}
	if len(x) > 1<<30 {
		return nil, fmt.Errorf("rdc.Diamond: %d elements, at most %d", len(x), 1<<30)
	}
	err := cudaErr(C.rdc_diamond((*C.float)(unsafe.Pointer(&x[0])), (*C.float)(unsafe.Pointer(&out[0])), C.int(len(x))))
	if err != nil {
		return nil, fmt.Errorf("rdc.Diamond: %w", err)
	}
	return out, nil
}
