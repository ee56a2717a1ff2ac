package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// maxDevices is the most CUDA devices the package addresses.
const maxDevices = 64

// Stream is a CUDA stream of one device: work queued on it runs in order,
// and work on different streams may overlap. The default stream of each
// device (DefaultStream) is the legacy default stream, which orders the
// work of every goroutine; NewStream makes non-blocking streams, which do
// not synchronize with it (like torch.cuda.Stream). Choose the stream of
// an op with WithStream. A Stream is safe for concurrent use.
type Stream struct {
	device int
	h      C.opscuda_stream // 0: the legacy default stream
	closed atomic.Bool
	// graph is the graph being captured on the stream, if any.
	graph atomic.Pointer[Graph]
	// seq counts the times work was queued on the stream (kernels, copies,
	// waits, handles given out): Graph.Replay skips waiting for a stream
	// whose count has not changed since its last wait.
	seq atomic.Uint64
}

// touch notes that work is about to be queued on s and returns its handle.
func (s *Stream) touch() C.opscuda_stream {
	s.seq.Add(1)
	return s.h
}

var defaults [maxDevices]atomic.Pointer[Stream]

// live lists the streams of each device that are not closed, for
// device-wide synchronization.
var live struct {
	mu sync.Mutex
	m  map[int]map[*Stream]struct{}
}

// DefaultStream returns the legacy default stream of device n: the stream
// of every op whose context names no stream for the device.
func DefaultStream(n int) (*Stream, error) {
	if err := checkDevice(ops.CUDA(n)); err != nil {
		return nil, err
	}
	return defaultStream(n), nil
}

// defaultStream is DefaultStream for a device already checked.
func defaultStream(n int) *Stream {
	if n >= maxDevices {
		return &Stream{device: n}
	}
	if s := defaults[n].Load(); s != nil {
		return s
	}
	defaults[n].CompareAndSwap(nil, &Stream{device: n})
	return defaults[n].Load()
}

// NewStream creates a non-blocking stream on device n. Close it when done.
func NewStream(n int) (*Stream, error) {
	if err := checkDevice(ops.CUDA(n)); err != nil {
		return nil, err
	}
	var h C.opscuda_stream
	if err := check(fmt.Sprintf("cudaStreamCreate on cuda:%d", n), C.opscuda_stream_create(C.int(n), &h)); err != nil {
		return nil, err
	}
	s := &Stream{device: n, h: h}
	live.mu.Lock()
	if live.m == nil {
		live.m = map[int]map[*Stream]struct{}{}
	}
	if live.m[n] == nil {
		live.m[n] = map[*Stream]struct{}{}
	}
	live.m[n][s] = struct{}{}
	live.mu.Unlock()
	return s, nil
}

// liveStreams returns the open streams of device n, its default stream
// first.
func liveStreams(n int) []*Stream {
	out := []*Stream{defaultStream(n)}
	live.mu.Lock()
	defer live.mu.Unlock()
	for s := range live.m[n] {
		out = append(out, s)
	}
	return out
}

// Device returns the stream's device.
func (s *Stream) Device() ops.Device { return ops.CUDA(s.device) }

// IsDefault reports whether s is its device's legacy default stream.
func (s *Stream) IsDefault() bool { return s.h == 0 }

// Handle returns the stream's cudaStream_t for kernels launched outside
// this package: 0 for the default stream, which a launch compiled with
// nvcc's default --default-stream=legacy (and the driver API) takes as the
// legacy default stream. Once s is closed it is the default stream's, where
// the work of s's tensors goes then.
func (s *Stream) Handle() uintptr { return uintptr(s.effective().touch()) }

// String returns "cuda:N/default" or "cuda:N/0x...".
func (s *Stream) String() string {
	if s.h == 0 {
		return fmt.Sprintf("cuda:%d/default", s.device)
	}
	return fmt.Sprintf("cuda:%d/%#x", s.device, uintptr(s.h))
}

// Close waits for the work queued on s, then destroys it. Tensors made on
// s stay valid: their later users and their memory go to the default
// stream. Closing a default stream or a stream being captured is an error;
// closing twice is a no-op.
func (s *Stream) Close() error {
	if s.h == 0 {
		return fmt.Errorf("cuda: closing %v: the default stream cannot be closed", s)
	}
	if s.graph.Load() != nil {
		return fmt.Errorf("cuda: closing %v while a graph is being captured on it: %w", s, ErrNotCapturable)
	}
	if s.closed.Swap(true) {
		return nil
	}
	live.mu.Lock()
	delete(live.m[s.device], s)
	live.mu.Unlock()
	err := check(fmt.Sprintf("destroying stream %v", s), C.opscuda_stream_destroy(C.int(s.device), s.h))
	// The stream's work is complete: its cached blocks are safe for the
	// default stream at once.
	cache.Move(s.device, uintptr(s.h), 0)
	return err
}

// effective returns s, or the device's default stream once s is closed
// (its work is complete then).
func (s *Stream) effective() *Stream {
	if s.closed.Load() {
		return defaultStream(s.device)
	}
	return s
}

// Capturing reports whether the work queued on s is being captured into a
// CUDA graph (Capture) rather than run.
func (s *Stream) Capturing() bool { return s.effective().capturing() != nil }

// capturing returns the graph being captured on s, or nil.
func (s *Stream) capturing() *Graph { return s.graph.Load() }

// WaitStream makes the work queued on s from now on wait (on the device,
// without blocking the caller) for the work queued on other so far, like
// torch.cuda.Stream.wait_stream.
func (s *Stream) WaitStream(other *Stream) error {
	if s.closed.Load() || other.closed.Load() {
		if s.closed.Load() {
			return fmt.Errorf("cuda: WaitStream on %v: %w", s, ErrClosed)
		}
		return nil // other's work is complete
	}
	if s == other || s.h == other.h {
		return nil
	}
	if s.device != other.device {
		return fmt.Errorf("cuda: WaitStream: %v and %v are on different devices: %w", s, other, ops.ErrDevice)
	}
	if g := other.capturing(); g != nil && other != s {
		err := fmt.Errorf("cuda: %v waiting for %v, which is being captured: %w", s, other, ErrNotCapturable)
		g.fail(err)
		return err
	}
	e, err := getEvent(s.device)
	if err != nil {
		return err
	}
	defer putEvent(s.device, e)
	return check(fmt.Sprintf("ordering %v after %v", s, other), C.opscuda_stream_wait_stream(C.int(s.device), s.touch(), other.h, e))
}

// Synchronize waits until the work queued on s so far has completed, or
// until ctx is done: then it returns ctx.Err() and the work goes on (its
// tensors keep their memory until it completes).
func (s *Stream) Synchronize(ctx context.Context) error {
	if g := s.capturing(); g != nil {
		err := fmt.Errorf("cuda: synchronizing %v during graph capture: %w", s, ErrNotCapturable)
		g.fail(err)
		return err
	}
	s = s.effective()
	e, err := getEvent(s.device)
	if err != nil {
		return err
	}
	if err := check(fmt.Sprintf("recording an event on %v", s), C.opscuda_event_record(C.int(s.device), e, s.h)); err != nil {
		putEvent(s.device, e)
		return err
	}
	err = waitEvents(ctx, s.device, []C.opscuda_event{e})
	if err == nil {
		putEvent(s.device, e)
	} else {
		go func() { // the event is still pending: recycle it once it completes
			if waitEvents(context.Background(), s.device, []C.opscuda_event{e}) == nil {
				putEvent(s.device, e)
			}
		}()
	}
	return err
}

// streamKey is the context key of the stream chosen for a device.
type streamKey struct{ device int }

// WithStream returns a copy of ctx that makes ops on s's device, called
// with the context (ops.AddScalar(ctx, ...), ops.Op.Call, ...), run on
// s. Ops on other devices are not affected; a context can carry one stream
// per device.
func WithStream(ctx context.Context, s *Stream) context.Context {
	return context.WithValue(ctx, streamKey{s.device}, s)
}

// StreamFrom returns the stream ctx chooses for device n: the one given to
// WithStream, else the device's default stream.
func StreamFrom(ctx context.Context, n int) *Stream {
	if ctx != nil {
		if s, ok := ctx.Value(streamKey{n}).(*Stream); ok {
			return s
		}
	}
	return defaultStream(n)
}
