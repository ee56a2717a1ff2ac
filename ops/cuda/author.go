package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import (
	"context"
	"fmt"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// The API of every CUDA kernel, this package's built-ins (kernels.go) and
// those written elsewhere (see ops/examples/square): NewLaunch gathers what a C launcher needs (stream,
// device, dtype code, device addresses) and orders the launch after the
// streams of the tensors it touches; Launch.Check turns the launcher's
// cudaError_t into an error and orders those streams after the launch.

// Launch is what the C launcher of a kernel needs, from NewLaunch.
type Launch struct {
	Stream uintptr   // the cudaStream_t to launch on (0 is the legacy default stream)
	Device int       // the device ordinal, for cudaSetDevice
	DType  int       // the C ABI's dtype code (OPSCUDA_FLOAT32, ... in csrc/opscuda.h) of the first tensor
	N      int       // the first tensor's number of elements
	Ptr    []uintptr // the device address of each tensor's first element, in NewLaunch's order

	s   *Stream
	sts []*storage // the tensors' storages, in order
}

// NewLaunch prepares the launch of a kernel that reads or writes tensors,
// all on one CUDA device: it returns the stream ctx chooses for the device
// (WithStream; in an op's kernel, the op's stream, which its output belongs
// to), the device, the dtype code and number of elements of the first
// tensor (an op's output, by convention) and the device address of each
// tensor's first element (its offset applied; the kernel indexes the
// tensors' strides itself, or is wrapped in ops.ContiguousInputs). The
// work queued on the stream from now on waits (on the device) for the work
// queued so far on the tensors' own streams, and their memory is kept from
// reuse until it has run, which is what ops does for an op's inputs. Call
// Check with the launcher's result.
func NewLaunch(ctx context.Context, tensors ...*ops.Tensor) (*Launch, error) {
	if ctx == nil {
		return nil, fmt.Errorf("cuda: NewLaunch: context is nil (use context.Background()): %w", ops.ErrArg)
	}
	if len(tensors) == 0 {
		return nil, fmt.Errorf("cuda: NewLaunch: no tensors: %w", ops.ErrArg)
	}
	l := newLaunch(len(tensors))
	sts := l.sts
	for i, t := range tensors {
		if t == nil {
			return nil, fmt.Errorf("cuda: NewLaunch: tensor %d: %w", i, ops.ErrNil)
		}
		stor := t.Storage()
		if stor == nil {
			return nil, fmt.Errorf("cuda: NewLaunch: tensor %d has been freed: %w", i, ops.ErrFreed)
		}
		st, err := storageOf(stor)
		if err == nil && i > 0 && st.device != sts[0].device {
			err = fmt.Errorf("on cuda:%d, tensor 0 on cuda:%d: %w", st.device, sts[0].device, ops.ErrDevice)
		}
		if err != nil {
			return nil, fmt.Errorf("cuda: NewLaunch: tensor %d: %w", i, err)
		}
		sts[i] = st
	}
	s := StreamFrom(ctx, sts[0].device).effective()
	l.Stream, l.Device, l.DType, l.N, l.s = uintptr(s.touch()), s.device, int(dtypeCode(tensors[0].DType())), tensors[0].Numel(), s
	for i, st := range sts {
		if st.n > 0 {
			if err := orderUse(st, s); err != nil {
				return nil, fmt.Errorf("cuda: NewLaunch: tensor %d: %w", i, err)
			}
		}
		l.Ptr[i] = uintptr(st.at(tensors[i].Offset()))
	}
	return l, nil
}

// launchFew is a Launch with room for the tensors of most launches, so
// that NewLaunch allocates once.
type launchFew struct {
	l   Launch
	ptr [6]uintptr
	sts [6]*storage
}

// newLaunch returns a Launch whose Ptr and sts have n elements.
func newLaunch(n int) *Launch {
	if n > len(launchFew{}.ptr) {
		return &Launch{Ptr: make([]uintptr, n), sts: make([]*storage, n)}
	}
	b := &launchFew{}
	b.l.Ptr, b.l.sts = b.ptr[:n], b.sts[:n]
	return &b.l
}

// Check returns nil for code 0 (cudaSuccess), else the *Error of the
// cudaError_t code that the launcher returned, naming what was launched.
// After a successful launch it makes the streams of the launch's tensors
// that are not the launch's wait (on the device) for it, so that their
// later users see what the kernel wrote; a launcher that reports its errors
// another way (the driver API's CUresult, as ops/cuda/cumodule's) calls
// Check(what, 0) once it has launched. During a graph capture on the
// launch's stream nothing is ordered (the graph's replays are ordered after
// its inputs' streams instead).
func (l *Launch) Check(what string, code int) error {
	if err := check(what, C.int(code)); err != nil {
		return err
	}
	return l.publish()
}

// publish makes the streams of the launch's tensors other than its own
// wait (on the device) for the work queued on it so far.
func (l *Launch) publish() error {
	s := l.s.effective()
	if s.capturing() != nil {
		return nil
	}
	var done []*Stream
	for _, st := range l.sts {
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
	case ops.Int32:
		return C.OPSCUDA_INT32
	}
	return 0
}
