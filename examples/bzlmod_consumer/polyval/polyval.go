// Package polyval evaluates a quadratic on the GPU with a kernel that calls a __device__ function
// of another Bazel target (//devmath, relocatable device code device-linked by this package's
// go_cuda_library).
package polyval

// #include "polyval/polyval.h"
import "C"

import (
	"fmt"
	"unsafe"
)

// DeviceCount returns the number of CUDA devices, or the CUDA error code when there is none.
func DeviceCount() (int, int) {
	var n C.int
	code := C.polyval_device_count(&n)
	return int(n), int(code)
}

// Quadratic returns a*x[i]^2 + b*x[i] + c for each x[i], computed on the GPU.
func Quadratic(x []float32, a, b, c float32) ([]float32, error) {
	y := make([]float32, len(x))
	if len(x) == 0 {
		return y, nil
	}
	if len(x) > 1<<30 {
		return nil, fmt.Errorf("polyval: %d elements, at most %d", len(x), 1<<30)
	}
	code := C.polyval_quadratic((*C.float)(unsafe.Pointer(&x[0])), (*C.float)(unsafe.Pointer(&y[0])), C.int(len(x)), C.float(a), C.float(b), C.float(c))
	if code != 0 {
		return nil, fmt.Errorf("polyval: CUDA error %d", int(code))
	}
	return y, nil
}
