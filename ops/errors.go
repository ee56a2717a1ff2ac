package ops

import (
	"context"
	"errors"
	"fmt"
)

// Sentinel errors. Every error returned for bad input wraps exactly one of
// these, so callers can test the kind with errors.Is; the message names the
// op, the argument and what was expected.
var (
	// ErrNil reports a nil *Tensor argument.
	ErrNil = errors.New("ops: nil tensor")
	// ErrFreed reports use of a tensor whose storage was released by Free.
	ErrFreed = errors.New("ops: tensor has been freed")
	// ErrDType reports an unsupported dtype or mixed dtypes.
	ErrDType = errors.New("ops: wrong dtype")
	// ErrDevice reports an invalid device or tensors on different devices.
	ErrDevice = errors.New("ops: wrong device")
	// ErrShape reports a wrong rank, mismatched shapes or an invalid shape.
	ErrShape = errors.New("ops: wrong shape")
	// ErrArg reports an invalid non-tensor argument (dimension index out of
	// range, wrong number of arguments, ...).
	ErrArg = errors.New("ops: invalid argument")
	// ErrNoKernel reports that an op has no kernel for the device of its inputs.
	ErrNoKernel = errors.New("ops: no kernel for device")
	// ErrNoBackend reports that no Backend is registered for a device type.
	ErrNoBackend = errors.New("ops: no backend for device")
	// ErrGrad reports misuse of autograd (Backward on a tensor that does not
	// require grad, a missing backward, a gradient of the wrong shape, ...).
	ErrGrad = errors.New("ops: autograd error")
)

// OpError is the error type returned for bad input. Its message reads
// "ops.<Op>: <Detail>", for example
// "ops.Axpby: y has dtype float32, expected float64 (same as x)".
type OpError struct {
	Op     string // op or method name, e.g. "Axpby" or "Reshape"
	Arg    string // name of the offending argument, "" if none in particular
	Kind   error  // one of the Err* sentinels; returned by Unwrap
	Detail string // human-readable description naming the argument
}

// Error implements error.
func (e *OpError) Error() string {
	if e.Op == "" {
		return "ops: " + e.Detail
	}
	return "ops." + e.Op + ": " + e.Detail
}

// Unwrap returns e.Kind so that errors.Is(err, ErrShape) etc. work.
func (e *OpError) Unwrap() error { return e.Kind }

func opErr(op, arg string, kind error, format string, a ...any) *OpError {
	return &OpError{Op: op, Arg: arg, Kind: kind, Detail: fmt.Sprintf(format, a...)}
}

// checkCtx reports a nil context, which every function that queues work
// refuses (context.Background() is the context of no particular request).
func checkCtx(op string, ctx context.Context) error {
	if ctx == nil {
		return opErr(op, "ctx", ErrArg, "context is nil (use context.Background())")
	}
	return nil
}
