package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import (
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// The small API for kernels written outside this package (see
// ops/examples/square): the device address of a tensor, the C ABI's dtype
// code, the stream to launch on, and the error of a launch.

// DevicePtr returns the device address of t's first element (its
// storage's address plus its offset).
func DevicePtr(t *ops.Tensor) (uintptr, error) {
	s, err := storageOf(t.Storage())
	if err != nil {
		return 0, err
	}
	return uintptr(s.at(t.Offset())), nil
}

// DTypeCode returns the dtype code of the C ABI (csrc/opscuda.h:
// OPSCUDA_FLOAT32, OPSCUDA_FLOAT64) for d.
func DTypeCode(d ops.DType) int { return int(dtypeCode(d)) }

// dtypeCode maps an ops.DType to the C API's OPSCUDA_FLOAT32/64.
func dtypeCode(d ops.DType) C.int {
	if d == ops.Float32 {
		return C.OPSCUDA_FLOAT32
	}
	return C.OPSCUDA_FLOAT64
}

// LaunchStream returns the stream a kernel writing out must be launched on
// (out's; Stream.Handle gives the cudaStream_t), after ordering that
// stream after the work that produced each of inputs on other streams and
// keeping their memory until it has run. ops does this for an op's own
// inputs before calling its kernel; a kernel passes the tensors it makes
// itself (a Contiguous copy, say).
func LaunchStream(out *ops.Tensor, inputs ...*ops.Tensor) (*Stream, error) {
	o, err := storageOf(out.Storage())
	if err != nil {
		return nil, fmt.Errorf("cuda: LaunchStream: output: %w", err)
	}
	s := o.stream.effective()
	for i, t := range inputs {
		st, err := storageOf(t.Storage())
		if err != nil {
			return nil, fmt.Errorf("cuda: LaunchStream: input %d: %w", i, err)
		}
		if st.n == 0 {
			continue
		}
		if err := orderUse(st, s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// LaunchError returns nil for code 0 (cudaSuccess), else the *Error of the
// cudaError_t code that a launcher returned, naming what was launched.
func LaunchError(what string, code int) error {
	return check(what, C.int(code))
}
