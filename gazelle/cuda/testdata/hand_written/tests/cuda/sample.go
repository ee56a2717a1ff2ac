// Package sample is the Go side of the sample kernel: a go_cuda_library calling a cu_library.
package sample

// #include <stdlib.h>
// #include "tests/cuda/sample.h"
import "C"

import (
	"fmt"
	"unsafe"
)

// Offset is what the kernel adds after scaling (SAMPLE_OFFSET_VALUE, a define of its cc_library dep).
const Offset = 0.5

// Error is a CUDA runtime error.
type Error struct {
	Code int
	Name string
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("CUDA error %d (%s): %s", e.Code, e.Name, e.Msg) }

// NoDevice reports whether the error means there is no usable GPU or driver
// (cudaErrorNoDevice, cudaErrorInsufficientDriver).
func (e *Error) NoDevice() bool { return e.Code == 100 || e.Code == 35 }

func cudaErr(code C.int) error {
	if code == 0 {
		return nil
	}
	return &Error{Code: int(code), Name: C.GoString(C.sample_error_name(code)), Msg: C.GoString(C.sample_error_string(code))}
}

// DeviceCount returns the number of CUDA devices.
func DeviceCount() (int, error) {
	var n C.int
	err := cudaErr(C.sample_device_count(&n))
	return int(n), err
}

// Scale computes x[i] = a*x[i] + Offset on the GPU, in place.
func Scale(x []float32, a float32) error {
	if len(x) == 0 {
		return nil
	}
	return cudaErr(C.sample_scale((*C.float)(unsafe.Pointer(&x[0])), C.float(a), C.longlong(len(x))))
}
