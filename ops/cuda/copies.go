package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// hostSpan returns the address and byte size of n elements of h from off,
// after checking bounds and dtype.
func hostSpan(h *ops.CPUStorage, off, n int, dtype ops.DType) (unsafe.Pointer, int, error) {
	if h == nil {
		return nil, 0, fmt.Errorf("cuda: host storage is nil: %w", ops.ErrNil)
	}
	if h.DType() != dtype {
		return nil, 0, fmt.Errorf("cuda: host storage has dtype %v, expected %v: %w", h.DType(), dtype, ops.ErrDType)
	}
	if off < 0 || n < 0 || off+n > h.Len() {
		return nil, 0, fmt.Errorf("cuda: host range [%d, %d) is outside a storage of %d elements: %w", off, off+n, h.Len(), ops.ErrArg)
	}
	switch dtype {
	case ops.Float32:
		return unsafe.Pointer(&h.Float32()[off]), n * 4, nil
	case ops.Float16:
		return unsafe.Pointer(&h.Float16()[off]), n * 2, nil
	case ops.BFloat16:
		return unsafe.Pointer(&h.BFloat16()[off]), n * 2, nil
	case ops.Int32:
		return unsafe.Pointer(&h.Int32()[off]), n * 4, nil
	}
	return unsafe.Pointer(&h.Float64()[off]), n * 8, nil
}

// deviceSpan returns the CUDA storage of s after checking that n elements
// from off lie inside it; an empty range (n == 0) is valid at any offset,
// as an empty view may start past the end of its storage.
func deviceSpan(s ops.Storage, off, n int) (*storage, error) {
	cs, err := storageOf(s)
	if err != nil {
		return nil, err
	}
	if off < 0 || n < 0 || (n > 0 && off+n > cs.n) {
		return nil, fmt.Errorf("cuda: device range [%d, %d) is outside a storage of %d elements: %w", off, off+n, cs.n, ops.ErrArg)
	}
	return cs, nil
}

func (backend) CopyFromHost(dst ops.Storage, dstOff int, src *ops.CPUStorage, srcOff, n int) error {
	d, err := deviceSpan(dst, dstOff, n)
	if err != nil || n == 0 {
		return err
	}
	p, bytes, err := hostSpan(src, srcOff, n, d.dtype)
	if err != nil {
		return err
	}
	if err := notCapturing("CopyFromHost", d); err != nil {
		return err
	}
	if code := C.opscuda_copy_to_device(C.int(d.device), d.queue(), d.at(dstOff), p, C.ulonglong(bytes)); code != 0 {
		return check(fmt.Sprintf("copying %d bytes to cuda:%d", bytes, d.device), code)
	}
	return nil
}

func (backend) CopyToHost(dst *ops.CPUStorage, dstOff int, src ops.Storage, srcOff, n int) error {
	s, err := deviceSpan(src, srcOff, n)
	if err != nil || n == 0 {
		return err
	}
	p, bytes, err := hostSpan(dst, dstOff, n, s.dtype)
	if err != nil {
		return err
	}
	if err := notCapturing("CopyToHost", s); err != nil {
		return err
	}
	if code := C.opscuda_copy_to_host(C.int(s.device), s.queue(), p, s.at(srcOff), C.ulonglong(bytes)); code != 0 {
		return check(fmt.Sprintf("copying %d bytes from cuda:%d", bytes, s.device), code)
	}
	return nil
}

// notCapturing fails a synchronous host copy of st when its stream is
// being captured (the copy would wait for work that does not run), and
// fails the capture with it.
func notCapturing(op string, st *storage) error {
	g := st.stream.capturing()
	if g == nil {
		return nil
	}
	err := fmt.Errorf("cuda: %s of a tensor of %v during graph capture (copy through a Pinned buffer with CopyToDeviceAsync/CopyToHostAsync, or after the capture): %w", op, st.stream, ErrNotCapturable)
	g.fail(err)
	return err
}

// Synchronize implements ops.Backend: it waits for all the work queued on
// device d so far (on its default stream and every open stream) or until
// ctx is done; then it returns ctx.Err(), and the work goes on and its
// tensors keep their memory until it completes. A context that can be done
// makes it poll events, so deadlines and cancellation work; one that never
// is (context.Background()) blocks in cudaDeviceSynchronize. It fails while
// a stream of the device is being captured.
func (backend) Synchronize(ctx context.Context, d ops.Device) error {
	if err := checkDevice(d); err != nil {
		return err
	}
	streams := liveStreams(d.Index)
	for _, s := range streams {
		if s.capturing() != nil {
			return fmt.Errorf("cuda: Synchronize(%v) while %v is being captured: %w", d, s, ErrNotCapturable)
		}
	}
	if ctx.Done() == nil {
		if code := C.opscuda_synchronize(C.int(d.Index)); code != 0 {
			return check(fmt.Sprintf("cudaDeviceSynchronize on %v", d), code)
		}
		return nil
	}
	var evs []C.opscuda_event
	defer func() {
		for _, e := range evs {
			putEvent(d.Index, e)
		}
	}()
	for _, s := range streams {
		e, err := getEvent(d.Index)
		if err != nil {
			return err
		}
		if err := check(fmt.Sprintf("recording an event on %v", s), C.opscuda_event_record(C.int(d.Index), e, s.h)); err != nil {
			putEvent(d.Index, e)
			if s.closed.Load() {
				continue
			}
			return err
		}
		evs = append(evs, e)
	}
	err := waitEvents(ctx, d.Index, evs)
	if err != nil && ctx.Err() != nil {
		pending := evs
		evs = nil
		go func() { // the events are still pending: recycle them once they complete
			if waitEvents(context.Background(), d.Index, pending) == nil {
				for _, e := range pending {
					putEvent(d.Index, e)
				}
			}
		}()
	}
	return err
}

// CopyPeer is the optional method of ops.Backend: a copy between the memories of two
// GPUs with cudaMemcpyPeerAsync, queued on dst's stream (the stream of the
// context of the To that allocated it) after the work queued so far on
// src's stream, which then waits for the copy before its later work (so
// the source is neither overwritten nor freed before it is read); the
// caller does not wait. Peer access between the two devices is enabled the
// first time they are copied between; where the hardware cannot access
// peer memory (PeerAccess reports false), CUDA stages the copy through host
// memory.
func (backend) CopyPeer(dst ops.Storage, dstOff int, src ops.Storage, srcOff, n int) error {
	d, err := deviceSpan(dst, dstOff, n)
	if err != nil {
		return err
	}
	s, err := deviceSpan(src, srcOff, n)
	if err != nil || n == 0 {
		return err
	}
	if d.dtype != s.dtype {
		return fmt.Errorf("cuda: peer copy from %v to %v storage: %w", s.dtype, d.dtype, ops.ErrDType)
	}
	ds, ss := d.stream.effective(), s.stream.effective()
	for _, st := range []*Stream{ds, ss} {
		if g := st.capturing(); g != nil {
			err := fmt.Errorf("cuda: a copy from cuda:%d to cuda:%d while %v is being captured: %w", s.device, d.device, st, ErrNotCapturable)
			g.fail(err)
			return err
		}
	}
	bytes := n * d.dtype.Size()
	if code := C.opscuda_copy_peer(C.int(d.device), ds.touch(), d.at(dstOff), C.int(s.device), ss.touch(), s.at(srcOff), C.ulonglong(bytes)); code != 0 {
		return check(fmt.Sprintf("copying %d bytes from cuda:%d to cuda:%d", bytes, s.device, d.device), code)
	}
	return nil
}

// PeerAccess enables access from GPU device to the memory of GPU peer, if
// the hardware allows it, and reports whether it is on. To between the two
// devices calls it itself; a false result means their copies are staged
// through host memory by CUDA (slower, but correct). A device is its own
// peer.
func PeerAccess(device, peer int) (bool, error) {
	for _, n := range []int{device, peer} {
		if err := checkDevice(ops.CUDA(n)); err != nil {
			return false, err
		}
	}
	var direct C.int
	if code := C.opscuda_peer_access(C.int(device), C.int(peer), &direct); code != 0 {
		return false, check(fmt.Sprintf("enabling peer access from cuda:%d to cuda:%d", device, peer), code)
	}
	return direct != 0, nil
}
