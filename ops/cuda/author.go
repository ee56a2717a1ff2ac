package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import (
	"context"
	"fmt"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// The small API for kernels written outside this package (see
// ops/examples/square): NewLaunch gathers what a C launcher needs (stream,
// device, dtype code, device addresses of contiguous operands) and
// Launch.Done turns its result into an error; DevicePtr, DTypeCode,
// LaunchStream and LaunchError are the pieces, and Stream.Use and
// Stream.Publish order kernels whose outputs are not fresh tensors.

// Launch is what the C launcher of a kernel writing a fresh contiguous
// output needs, from NewLaunch.
type Launch struct {
	Stream uintptr   // the cudaStream_t to launch on (Stream.Handle: 0 is the legacy default stream)
	Device int       // the device ordinal, for cudaSetDevice
	DType  int       // the C ABI's dtype code of out (DTypeCode)
	N      int       // out's number of elements
	Out    uintptr   // device address of out's first element
	In     []uintptr // device address of each input's first element, each input contiguous
	// release frees the contiguous copies NewLaunch made.
	release func()
}

// NewLaunch prepares the launch of a kernel that writes out (fresh and
// contiguous, as ops hands it to a kernel) from inputs on out's device: it
// makes each input contiguous (copies made on out's stream), orders out's
// stream after the work that produced the inputs on other streams, keeps
// their memory until the kernel has run, and returns the stream, device,
// dtype code and device addresses. Call Done with the launcher's result.
func NewLaunch(out *ops.Tensor, inputs ...*ops.Tensor) (*Launch, error) {
	o, err := storageOf(out.Storage())
	if err != nil {
		return nil, fmt.Errorf("cuda: NewLaunch: output: %w", err)
	}
	s := o.stream.effective()
	in, release, err := ops.ContiguousAll(WithStream(context.Background(), s), inputs...)
	if err != nil {
		return nil, fmt.Errorf("cuda: NewLaunch: %w", err)
	}
	l := &Launch{Stream: uintptr(s.touch()), Device: o.device, DType: DTypeCode(out.DType()), N: out.Numel(),
		Out: uintptr(o.at(out.Offset())), In: make([]uintptr, len(in)), release: release}
	for i, t := range in {
		st, err := storageOf(t.Storage())
		if err == nil && st.device != o.device {
			err = fmt.Errorf("on cuda:%d, the output on cuda:%d: %w", st.device, o.device, ops.ErrDevice)
		}
		if err == nil && st.n > 0 {
			err = orderUse(st, s)
		}
		if err != nil {
			release()
			return nil, fmt.Errorf("cuda: NewLaunch: input %d: %w", i, err)
		}
		l.In[i] = uintptr(st.at(t.Offset()))
	}
	return l, nil
}

// Done frees the contiguous copies NewLaunch made (stream-ordered: safe
// with the kernel still queued) and returns LaunchError(what, code).
func (l *Launch) Done(what string, code int) error {
	if l.release != nil {
		l.release()
		l.release = nil
	}
	return LaunchError(what, code)
}

// Use orders the work queued on s from now on after the work queued so
// far on the streams of ts (on the device; the caller does not block) and
// keeps their memory from reuse until that work has run: what ops do for
// their inputs, for a kernel launched on s outside this package that reads
// or writes ts. Tensors on other devices are an error.
func (s *Stream) Use(ts ...*ops.Tensor) error {
	for i, t := range ts {
		st, err := storageOf(t.Storage())
		if err == nil && st.device != s.device {
			err = fmt.Errorf("on cuda:%d, the stream on cuda:%d: %w", st.device, s.device, ops.ErrDevice)
		}
		if err != nil {
			return fmt.Errorf("cuda: Stream.Use on %v: tensor %d: %w", s, i, err)
		}
		if st.n == 0 {
			continue
		}
		if err := orderUse(st, s.effective()); err != nil {
			return err
		}
	}
	return nil
}

// Publish makes the streams of ts other than s wait (on the device) for the
// work queued on s so far: call it after launching, on s, a kernel that
// wrote tensors of other streams, so that their later users see the
// writes. During a graph capture on s it does nothing (the graph's replays
// are ordered after its inputs' streams, not before).
func (s *Stream) Publish(ts ...*ops.Tensor) error {
	s = s.effective()
	if s.capturing() != nil {
		return nil
	}
	var done []*Stream
	for _, t := range ts {
		st, err := storageOf(t.Storage())
		if err != nil {
			return fmt.Errorf("cuda: Stream.Publish on %v: %w", s, err)
		}
		w := st.stream.effective()
		if w == s || w.h == s.h || st.n == 0 || slices.Contains(done, w) {
			continue
		}
		if err := w.WaitStream(s); err != nil {
			return err
		}
		done = append(done, w)
	}
	return nil
}

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
// OPSCUDA_FLOAT32, OPSCUDA_FLOAT64, OPSCUDA_FLOAT16, OPSCUDA_BFLOAT16) for
// d, or 0 for an invalid dtype.
func DTypeCode(d ops.DType) int { return int(dtypeCode(d)) }

// dtypeCode maps an ops.DType to the C API's OPSCUDA_* dtype code.
func dtypeCode(d ops.DType) C.int {
	switch d {
	case ops.Float32:
		return C.OPSCUDA_FLOAT32
	case ops.Float64:
		return C.OPSCUDA_FLOAT64
	case ops.Float16:
		return C.OPSCUDA_FLOAT16
	case ops.BFloat16:
		return C.OPSCUDA_BFLOAT16
	}
	return 0
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
