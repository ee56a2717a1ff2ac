package nccl

// #include "ops/cuda/nccl/csrc/opsnccl.h"
import "C"

import (
	"errors"
	"fmt"
)

// ErrNoNCCL is wrapped by the errors returned when libnccl.so.2 cannot be
// loaded (the message lists every place tried and why each failed).
var ErrNoNCCL = errors.New("nccl: NCCL is not available")

// ErrAborted is wrapped by the errors of a communicator that was aborted
// (by Abort, by a context that was done before its work completed, or
// after an asynchronous error) and by every later call on it.
var ErrAborted = errors.New("nccl: communicator aborted")

// ErrClosed is wrapped by the errors of calls on a closed communicator.
var ErrClosed = errors.New("nccl: communicator closed")

// Result codes of ncclResult_t used here.
const (
	resSuccess    = 0
	resInProgress = 7
)

// Error is a failed NCCL call: what was being done, the ncclResult_t (or
// CUDA error) and NCCL's description, with NCCL's last error message when
// it has one.
type Error struct {
	Op     string // what was being done
	Code   int    // the ncclResult_t, or OPSNCCL_ERROR_* codes
	Name   string // e.g. "ncclInvalidArgument"
	Detail string // NCCL's description and last error message
}

func (e *Error) Error() string {
	return fmt.Sprintf("nccl: %s: %s (%s)", e.Op, e.Name, e.Detail)
}

// Is makes errors.Is(err, ErrNoNCCL) hold for a library that could not be
// loaded.
func (e *Error) Is(target error) bool {
	return target == ErrNoNCCL && e.Code == C.OPSNCCL_ERROR_MISSING
}

var resultNames = map[int]string{
	0: "ncclSuccess", 1: "ncclUnhandledCudaError", 2: "ncclSystemError", 3: "ncclInternalError",
	4: "ncclInvalidArgument", 5: "ncclInvalidUsage", 6: "ncclRemoteError", 7: "ncclInProgress",
}

// check turns a result code into nil or an *Error; comm (0 for none) gives
// NCCL's last error message.
func check(op string, code C.int, comm C.opsnccl_comm) error {
	if code == resSuccess {
		return nil
	}
	c := int(code)
	name := resultNames[c]
	switch {
	case c == C.OPSNCCL_ERROR_MISSING:
		name = "NCCL missing"
	case c >= C.OPSNCCL_ERROR_CUDA_BASE:
		name = fmt.Sprintf("CUDA error %d", c-C.OPSNCCL_ERROR_CUDA_BASE)
	case name == "":
		name = fmt.Sprintf("ncclResult_t %d", c)
	}
	detail := C.GoString(C.opsnccl_error_string(code))
	if c < C.OPSNCCL_ERROR_MISSING {
		if last := C.GoString(C.opsnccl_last_error(comm)); last != "" {
			detail += ": " + last
		}
	}
	return &Error{Op: op, Code: c, Name: name, Detail: detail}
}

// Info reports the NCCL library in use: its version code (e.g. 22707 for
// 2.27.7) and file. It loads the library if need be; the error wraps
// ErrNoNCCL and says where it was looked for when it cannot be loaded.
func Info() (version int, path string, err error) {
	var v C.int
	var buf [4096]C.char
	if code := C.opsnccl_info(&v, &buf[0], C.int(len(buf))); code != 0 {
		return 0, "", check("loading libnccl", code, 0)
	}
	return int(v), C.GoString(&buf[0]), nil
}
