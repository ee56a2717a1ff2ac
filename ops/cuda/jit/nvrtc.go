package jit

// #include <stdlib.h>
// #include "ops/cuda/jit/nvrtc.h"
import "C"

import (
	"bytes"
	"fmt"
	"sort"
	"sync"
	"unsafe"
)

// nvrtcCompilation is NVRTC_ERROR_COMPILATION: the source did not compile (see the log).
const nvrtcCompilation = 6

var stageNames = map[int]string{
	C.JIT_STAGE_CREATE:    "nvrtcCreateProgram",
	C.JIT_STAGE_NAME_EXPR: "nvrtcAddNameExpression",
	C.JIT_STAGE_COMPILE:   "nvrtcCompileProgram",
	C.JIT_STAGE_LOWERED:   "nvrtcGetLoweredName",
	C.JIT_STAGE_CODE:      "nvrtcGetCUBIN/nvrtcGetPTX",
	C.JIT_STAGE_ALLOC:     "malloc",
}

var version = sync.OnceValues(func() (string, error) {
	var major, minor C.int
	if res := C.jit_nvrtc_version(&major, &minor); res != 0 {
		return "", nvrtcError("nvrtcVersion", int(res))
	}
	return fmt.Sprintf("%d.%d", int(major), int(minor)), nil
})

// Version returns the version of the NVRTC library the program loaded, e.g. "13.2".
func Version() (string, error) { return version() }

var supported = sync.OnceValues(func() ([]int, error) {
	archs := make([]C.int, 64)
	var n C.int
	if res := C.jit_nvrtc_supported_archs(&archs[0], C.int(len(archs)), &n); res != 0 {
		return nil, nvrtcError("nvrtcGetSupportedArchs", int(res))
	}
	out := make([]int, int(n))
	for i := range out {
		out[i] = int(archs[i])
	}
	sort.Ints(out)
	return out, nil
})

// SupportedArchs returns the compute capabilities NVRTC can compile for, as major*10+minor
// (75, 80, 86, ..., 120, 121), ascending.
func SupportedArchs() ([]int, error) {
	s, err := supported()
	return append([]int(nil), s...), err
}

func nvrtcError(op string, code int) *Error {
	return &Error{Op: op, Code: code, Name: C.GoString(C.jit_nvrtc_error_string(C.int(code)))}
}

// cStrings is a C array of C strings, freed by free.
type cStrings struct{ ptrs []*C.char }

func newCStrings(ss []string) *cStrings {
	c := &cStrings{ptrs: make([]*C.char, len(ss)+1)} // +1: never a zero-length array
	for i, s := range ss {
		c.ptrs[i] = C.CString(s)
	}
	return c
}

func (c *cStrings) array() **C.char { return &c.ptrs[0] }

func (c *cStrings) free() {
	for _, p := range c.ptrs {
		C.free(unsafe.Pointer(p))
	}
}

// rawResult is what one NVRTC compilation produced.
type rawResult struct {
	code    []byte
	log     string
	lowered []string
}

// nvrtcCompile runs NVRTC once. A failed compilation returns the log and a *Error whose Code is
// NVRTC_ERROR_COMPILATION.
func nvrtcCompile(name, src string, headerNames, headerSrcs, opts, exprs []string, cubin bool) (rawResult, error) {
	csrc, cname := C.CString(src), C.CString(name)
	defer C.free(unsafe.Pointer(csrc))
	defer C.free(unsafe.Pointer(cname))
	hn, hs, co, ce := newCStrings(headerNames), newCStrings(headerSrcs), newCStrings(opts), newCStrings(exprs)
	defer hn.free()
	defer hs.free()
	defer co.free()
	defer ce.free()
	wantCubin := C.int(0)
	if cubin {
		wantCubin = 1
	}
	var out C.jit_nvrtc_result
	res := C.jit_nvrtc_compile(csrc, cname, C.int(len(headerNames)), hs.array(), hn.array(),
		C.int(len(opts)), co.array(), C.int(len(exprs)), ce.array(), wantCubin, &out)
	defer C.jit_nvrtc_free(&out)
	var r rawResult
	if out.log != nil {
		r.log = C.GoString(out.log)
	}
	if res != 0 {
		return r, nvrtcError(stageNames[int(out.stage)], int(res))
	}
	r.code = C.GoBytes(unsafe.Pointer(out.code), C.int(out.code_len))
	if out.lowered_len > 0 {
		low := C.GoBytes(unsafe.Pointer(out.lowered), C.int(out.lowered_len))
		for _, s := range bytes.Split(bytes.TrimSuffix(low, []byte{0}), []byte{0}) {
			r.lowered = append(r.lowered, string(s))
		}
	}
	if len(r.lowered) != len(exprs) {
		return r, fmt.Errorf("jit: NVRTC returned %d lowered names for %d name expressions", len(r.lowered), len(exprs))
	}
	return r, nil
}
