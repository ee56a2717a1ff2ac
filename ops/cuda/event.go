package cuda

// #include "ops/cuda/csrc/opscuda.h"
import "C"

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// Event marks a point in a stream's work (cudaEvent_t): Record it on a
// stream, make other streams wait for it (Stream.WaitEvent), ask whether
// the work before it has completed, wait for it with a deadline, and
// measure the time between two timing events. Like torch.cuda.Event.
type Event struct {
	device int
	h      C.opscuda_event
	timing bool
	closed atomic.Bool
}

// NewEvent creates an event on device n; timing events can be passed to
// Elapsed, the others are cheaper to record and wait for.
func NewEvent(n int, timing bool) (*Event, error) {
	if err := checkDevice(ops.CUDA(n)); err != nil {
		return nil, err
	}
	t := C.int(0)
	if timing {
		t = 1
	}
	var h C.opscuda_event
	if err := check(fmt.Sprintf("cudaEventCreate on cuda:%d", n), C.opscuda_event_create(C.int(n), t, &h)); err != nil {
		return nil, err
	}
	return &Event{device: n, h: h, timing: timing}, nil
}

func (e *Event) use(op string) error {
	if e == nil || e.closed.Load() {
		return fmt.Errorf("cuda: %s: event is nil or closed: %w", op, ErrClosed)
	}
	return nil
}

// Record marks the work queued on s so far; a later Record moves the mark.
func (e *Event) Record(s *Stream) error {
	if err := e.use("Event.Record"); err != nil {
		return err
	}
	if s.device != e.device {
		return fmt.Errorf("cuda: Event.Record: event of cuda:%d on stream %v: %w", e.device, s, ops.ErrDevice)
	}
	if s.closed.Load() {
		return fmt.Errorf("cuda: Event.Record on %v: %w", s, ErrClosed)
	}
	return check(fmt.Sprintf("recording an event on %v", s), C.opscuda_event_record(C.int(e.device), e.h, s.h))
}

// Done reports whether the work before the event's last Record has
// completed (true for an event never recorded).
func (e *Event) Done() (bool, error) {
	if err := e.use("Event.Done"); err != nil {
		return false, err
	}
	var d C.int
	if err := check("cudaEventQuery", C.opscuda_event_query(C.int(e.device), e.h, &d)); err != nil {
		return false, err
	}
	return d != 0, nil
}

// Synchronize waits until the work before the event's last Record has
// completed, or returns ctx.Err() when ctx is done first.
func (e *Event) Synchronize(ctx context.Context) error {
	if err := e.use("Event.Synchronize"); err != nil {
		return err
	}
	return waitEvents(ctx, e.device, []C.opscuda_event{e.h})
}

// Close destroys the event (work already waiting for it is not affected).
func (e *Event) Close() error {
	if e == nil || e.closed.Swap(true) {
		return nil
	}
	return check("cudaEventDestroy", C.opscuda_event_destroy(C.int(e.device), e.h))
}

// WaitEvent makes the work queued on s from now on wait (on the device) for
// the work before e's last Record.
func (s *Stream) WaitEvent(e *Event) error {
	if err := e.use("Stream.WaitEvent"); err != nil {
		return err
	}
	if s.closed.Load() {
		return fmt.Errorf("cuda: WaitEvent on %v: %w", s, ErrClosed)
	}
	if s.device != e.device {
		return fmt.Errorf("cuda: WaitEvent: event of cuda:%d, stream %v: %w", e.device, s, ops.ErrDevice)
	}
	return check(fmt.Sprintf("waiting on %v for an event", s), C.opscuda_stream_wait_event(C.int(s.device), s.touch(), e.h))
}

// Elapsed returns the device time between two recorded timing events of
// one device, once both have completed (like Event.elapsed_time).
func Elapsed(start, end *Event) (time.Duration, error) {
	if err := start.use("Elapsed"); err != nil {
		return 0, err
	}
	if err := end.use("Elapsed"); err != nil {
		return 0, err
	}
	if !start.timing || !end.timing || start.device != end.device {
		return 0, fmt.Errorf("cuda: Elapsed needs two timing events of one device: %w", ops.ErrArg)
	}
	var ms C.float
	if err := check("cudaEventElapsedTime", C.opscuda_event_elapsed(C.int(start.device), start.h, end.h, &ms)); err != nil {
		return 0, err
	}
	return time.Duration(float64(ms) * float64(time.Millisecond)), nil
}

// waitEvents polls until every event has completed or ctx is done (then it
// returns ctx.Err()): a short spin for the common short wait, then sleeps
// growing from 20 µs to 1 ms.
func waitEvents(ctx context.Context, device int, evs []C.opscuda_event) error {
	if ctx == nil {
		return fmt.Errorf("cuda: Synchronize: context is nil: %w", ops.ErrArg)
	}
	var timer *time.Timer
	delay := 20 * time.Microsecond
	for spin := 0; ; spin++ {
		for len(evs) > 0 {
			var d C.int
			if err := check("cudaEventQuery", C.opscuda_event_query(C.int(device), evs[0], &d)); err != nil {
				return err
			}
			if d == 0 {
				break
			}
			evs = evs[1:]
		}
		if len(evs) == 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if spin < 64 {
			runtime.Gosched()
			continue
		}
		if timer == nil {
			timer = time.NewTimer(delay)
			defer timer.Stop()
		} else {
			timer.Reset(delay)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		}
		delay = min(2*delay, time.Millisecond)
	}
}

// eventPool keeps non-timing events per device for the package's own
// cross-stream ordering and fences (an event can be recorded again as soon
// as the waits on it are queued).
var eventPool struct {
	mu sync.Mutex
	m  map[int][]C.opscuda_event
}

func getEvent(device int) (C.opscuda_event, error) {
	eventPool.mu.Lock()
	if l := eventPool.m[device]; len(l) > 0 {
		e := l[len(l)-1]
		eventPool.m[device] = l[:len(l)-1]
		eventPool.mu.Unlock()
		return e, nil
	}
	eventPool.mu.Unlock()
	var h C.opscuda_event
	if err := check(fmt.Sprintf("cudaEventCreate on cuda:%d", device), C.opscuda_event_create(C.int(device), 0, &h)); err != nil {
		return 0, err
	}
	return h, nil
}

func putEvent(device int, e C.opscuda_event) {
	eventPool.mu.Lock()
	defer eventPool.mu.Unlock()
	if eventPool.m == nil {
		eventPool.m = map[int][]C.opscuda_event{}
	}
	eventPool.m[device] = append(eventPool.m[device], e)
}

// fence is a blockcache.Fence: an event of the pool recorded on a stream.
type fence struct {
	device int
	e      C.opscuda_event
}

// Done implements blockcache.Fence; a failing query counts as done.
func (f fence) Done() bool {
	var d C.int
	if C.opscuda_event_query(C.int(f.device), f.e, &d) != 0 {
		return true
	}
	return d != 0
}

// Release implements blockcache.Fence.
func (f fence) Release() { putEvent(f.device, f.e) }
