// Package libs calls CUDA libraries that Bazel links through @cuda targets: cuBLAS (a GEMM on
// the GPU), cuRAND (the host generator, which runs without a GPU) and NVRTC (run-time
// compilation to PTX and CUBIN, which needs no GPU either). The shared libraries come from the
// pinned toolkit and are found at run time through the binary's run path into its runfiles.
package libs

// #include <stdlib.h>
// #include "tests/libs/libs.h"
import "C"

import (
	"fmt"
	"unsafe"
)

// Status codes of the C functions (libs.h).
const (
	statusOK          = C.LIBS_OK
	statusNoDevice    = C.LIBS_NO_DEVICE
	statusCUDA        = C.LIBS_CUDA_ERROR
	statusCUBLAS      = C.LIBS_CUBLAS_ERROR
	statusCURAND      = C.LIBS_CURAND_ERROR
	statusNVRTC       = C.LIBS_NVRTC_ERROR
	statusBadArgs     = C.LIBS_BAD_ARGS
	nvrtcErrorCompile = 6 // NVRTC_ERROR_COMPILATION
)

// Error is a failed call: Op names the function, Status the kind of failure (libs.h), Code the
// library's own code (cudaError_t, cublasStatus_t, curandStatus_t or nvrtcResult) and Name its name.
type Error struct {
	Op     string
	Status int
	Code   int
	Name   string
	// Log is NVRTC's program log, for compile errors.
	Log string
}

func (e *Error) Error() string {
	lib := map[int]string{statusNoDevice: "CUDA", statusCUDA: "CUDA", statusCUBLAS: "cuBLAS", statusCURAND: "cuRAND", statusNVRTC: "NVRTC"}[e.Status]
	if lib == "" {
		return fmt.Sprintf("libs.%s: %s", e.Op, e.Name)
	}
	return fmt.Sprintf("libs.%s: %s error %d (%s)", e.Op, lib, e.Code, e.Name)
}

// NoDevice reports whether the call failed because there is no usable GPU or driver
// (cudaErrorNoDevice, cudaErrorInsufficientDriver).
func (e *Error) NoDevice() bool { return e.Status == statusNoDevice }

// CompileError reports whether NVRTC rejected the source (NVRTC_ERROR_COMPILATION); Log says why.
func (e *Error) CompileError() bool { return e.Status == statusNVRTC && e.Code == nvrtcErrorCompile }

func newError(op string, status, detail C.int) error {
	if status == statusOK {
		return nil
	}
	return &Error{Op: op, Status: int(status), Code: int(detail), Name: C.GoString(C.libs_detail_name(status, detail))}
}

// Sgemm returns the row-major m×n product of a (m×k, row-major) and b (k×n, row-major), computed
// in fp32 by cublasSgemm on device 0. Without a GPU the error's NoDevice() is true.
func Sgemm(m, n, k int, a, b []float32) ([]float32, error) {
	if m < 1 || n < 1 || k < 1 {
		return nil, fmt.Errorf("libs.Sgemm: sizes m=%d n=%d k=%d, expected all >= 1", m, n, k)
	}
	if len(a) != m*k || len(b) != k*n {
		return nil, fmt.Errorf("libs.Sgemm: len(a) = %d, len(b) = %d, expected m*k = %d and k*n = %d", len(a), len(b), m*k, k*n)
	}
	c := make([]float32, m*n)
	var detail C.int
	st := C.libs_sgemm(C.int(m), C.int(n), C.int(k), (*C.float)(&a[0]), (*C.float)(&b[0]), (*C.float)(&c[0]), &detail)
	if err := newError("Sgemm", st, detail); err != nil {
		return nil, err
	}
	return c, nil
}

// UniformHost returns n uniform floats in (0, 1] from cuRAND's host Philox4x32-10 generator
// seeded with seed; the same seed gives the same numbers. It runs on the CPU.
func UniformHost(seed uint64, n int) ([]float32, error) {
	if n < 0 {
		return nil, fmt.Errorf("libs.UniformHost: n = %d, expected >= 0", n)
	}
	out := make([]float32, n)
	if n == 0 {
		return out, nil
	}
	var detail C.int
	st := C.libs_curand_uniform_host(C.ulonglong(seed), (*C.float)(&out[0]), C.size_t(n), &detail)
	if err := newError("UniformHost", st, detail); err != nil {
		return nil, err
	}
	return out, nil
}

// NVRTCVersion returns the version of the NVRTC library the program loaded.
func NVRTCVersion() (major, minor int, err error) {
	var ma, mi C.int
	if res := C.libs_nvrtc_version(&ma, &mi); res != 0 {
		return 0, 0, newError("NVRTCVersion", statusNVRTC, res)
	}
	return int(ma), int(mi), nil
}

// Program is what Compile returns.
type Program struct {
	// Code is the PTX text or the CUBIN (an ELF image).
	Code []byte
	// Lowered is the mangled name of the name expression given to Compile ("" without one).
	Lowered string
	// Log is NVRTC's program log (warnings; on failure, the errors are in the Error's Log).
	Log string
}

// Compile compiles CUDA C++ source with NVRTC. name is the program's name, which the log uses
// for its locations ("name(line): error: ..."); nameExpr, when not "", is a kernel name
// expression such as "scale<float>" whose lowered name Program.Lowered receives; cubin selects
// CUBIN output (needs a real architecture, e.g. "-arch=sm_90") instead of PTX. On a compile
// error the *Error's CompileError() is true and its Log holds NVRTC's messages.
func Compile(name, src, nameExpr string, cubin bool, opts ...string) (*Program, error) {
	csrc, cname := C.CString(src), C.CString(name)
	defer C.free(unsafe.Pointer(csrc))
	defer C.free(unsafe.Pointer(cname))
	var cexpr *C.char
	if nameExpr != "" {
		cexpr = C.CString(nameExpr)
		defer C.free(unsafe.Pointer(cexpr))
	}
	// The option strings and the array of pointers to them live in C memory: cgo forbids passing
	// C a Go array of pointers to Go memory.
	var copts **C.char
	if len(opts) > 0 {
		copts = (**C.char)(C.malloc(C.size_t(len(opts)) * C.size_t(unsafe.Sizeof((*C.char)(nil)))))
		defer C.free(unsafe.Pointer(copts))
		list := unsafe.Slice(copts, len(opts))
		for i, o := range opts {
			list[i] = C.CString(o)
			defer C.free(unsafe.Pointer(list[i]))
		}
	}
	var code, log, lowered *C.char
	var codeLen C.size_t
	var detail C.int
	isCubin := C.int(0)
	if cubin {
		isCubin = 1
	}
	st := C.libs_nvrtc_compile(csrc, cname, copts, C.int(len(opts)), cexpr, isCubin, &code, &codeLen, &log, &lowered, &detail)
	defer C.free(unsafe.Pointer(code))
	defer C.free(unsafe.Pointer(log))
	defer C.free(unsafe.Pointer(lowered))
	var logText string
	if log != nil {
		logText = C.GoString(log)
	}
	if err := newError("Compile", st, detail); err != nil {
		err.(*Error).Log = logText
		return nil, err
	}
	p := &Program{Log: logText}
	if code != nil {
		p.Code = C.GoBytes(unsafe.Pointer(code), C.int(codeLen))
	}
	if lowered != nil {
		p.Lowered = C.GoString(lowered)
	}
	return p, nil
}
