package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import (
	"errors"
	"fmt"
	"sync"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/internal/compat"
)

var deviceCount = sync.OnceValues(func() (int, error) {
	var n C.int
	if err := check("cudaGetDeviceCount", C.opscuda_device_count(&n)); err != nil {
		var ce *Error
		errors.As(err, &ce)
		detail := fmt.Sprintf("cudaGetDeviceCount returned %s (%s)", ce.Name, ce.Msg)
		// No driver, or one older than the toolkit the binary was built with: say which.
		var driver, runtime C.int
		if ce.Code == codeInsufficientDriver && C.opscuda_versions(&driver, &runtime) == 0 {
			detail = compat.Explain(int(driver), int(runtime)) + " (" + detail + ")"
		}
		return 0, &noDeviceError{detail: detail, cause: err}
	}
	if n <= 0 {
		return 0, &noDeviceError{detail: "cudaGetDeviceCount found 0 devices"}
	}
	return int(n), nil
})

// DeviceCount returns the number of CUDA devices. Without one (no GPU, no
// driver, a driver older than the CUDA toolkit the binary was built with, a
// build without CUDA) it returns 0 and an error wrapping ErrNoDevice that
// says why; for a driver that is too old it names the CUDA version the driver
// supports, the one the binary was built with, and the --cuda_version to
// rebuild with. The result is computed once.
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
