package nccl

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// dog is a Comm's watchdog: the device work of calls whose contexts can
// end, each marked by an event recorded after it, and the streams the
// communicator was used on (Close waits for them). One goroutine per
// communicator follows the pending work while there is some: it recycles
// the events of completed work, aborts the communicator when a context
// ends before its work has completed, and checks NCCL's asynchronous
// errors meanwhile. The calls themselves only record an event and append
// it, so a blocking communicator's launch stays on the caller's thread.
type dog struct {
	mu      sync.Mutex
	pending []watched
	free    []*cuda.Event
	used    []*cuda.Stream
	running bool
	wake    chan struct{} // made with the first watched call; capacity 1
}

// watched is the work of one call: done when e is.
type watched struct {
	ctx context.Context
	e   *cuda.Event
	op  string
}

// pollEvery is how often the watchdog looks at pending work: the delay,
// after a context's end, before the communicator is aborted.
const pollEvery = time.Millisecond

// stream remembers that the communicator was used on s.
func (d *dog) stream(s *cuda.Stream) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, u := range d.used {
		if u == s {
			return
		}
	}
	d.used = append(d.used, s)
}

// streams returns the streams the communicator was used on.
func (d *dog) streams() []*cuda.Stream {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]*cuda.Stream(nil), d.used...)
}

// poke wakes the watchdog goroutine (to see that the communicator is gone).
func (d *dog) poke() {
	d.mu.Lock()
	w := d.wake
	d.mu.Unlock()
	if w != nil {
		select {
		case w <- struct{}{}:
		default:
		}
	}
}

// watch makes the watchdog abort c if ctx is done before the work queued
// so far on s has completed. A context that is never done, or a stream
// being captured into a graph (its work runs at replay), needs no watch.
func (c *Comm) watch(ctx context.Context, s *cuda.Stream, op string) error {
	c.dog.stream(s)
	if ctx.Done() == nil || s.Capturing() {
		return nil
	}
	d := &c.dog
	d.mu.Lock()
	var e *cuda.Event
	if n := len(d.free); n > 0 {
		e, d.free = d.free[n-1], d.free[:n-1]
	}
	d.mu.Unlock()
	if e == nil {
		var err error
		if e, err = cuda.NewEvent(c.device, false); err != nil {
			return fmt.Errorf("nccl: %s on %v: watching the call: %w", op, c, err)
		}
	}
	if err := e.Record(s); err != nil {
		e.Close()
		return fmt.Errorf("nccl: %s on %v: watching the call: %w", op, c, err)
	}
	d.mu.Lock()
	d.pending = append(d.pending, watched{ctx: ctx, e: e, op: op})
	start := !d.running
	d.running = true
	if d.wake == nil {
		d.wake = make(chan struct{}, 1)
	}
	w := d.wake
	d.mu.Unlock()
	if start {
		go c.guard()
	} else {
		select {
		case w <- struct{}{}:
		default:
		}
	}
	return nil
}

// guard is the watchdog goroutine: it runs while the communicator is
// usable, and sleeps on the wake channel while nothing is pending.
func (c *Comm) guard() {
	d := &c.dog
	for {
		if c.gone() {
			d.mu.Lock()
			for _, w := range d.pending {
				d.free = append(d.free, w.e)
			}
			for _, e := range d.free {
				e.Close()
			}
			d.pending, d.free, d.running = nil, nil, false
			d.mu.Unlock()
			return
		}
		d.mu.Lock()
		if len(d.pending) == 0 {
			w := d.wake
			d.mu.Unlock()
			<-w
			continue
		}
		var why error
		var op string
		keep := d.pending[:0]
		for _, w := range d.pending {
			if done, err := w.e.Done(); err != nil || done {
				d.free = append(d.free, w.e)
				continue
			}
			if why == nil {
				if err := w.ctx.Err(); err != nil {
					why, op = err, w.op
				}
			}
			keep = append(keep, w)
		}
		clear(d.pending[len(keep):])
		d.pending = keep
		d.mu.Unlock()
		if why != nil {
			c.cancel(op, why)
			continue
		}
		if err := c.status("watch"); err != nil && err != errInProgress {
			continue // aborted: the next call reports why
		}
		select {
		case <-time.After(pollEvery):
		case <-d.wake:
		}
	}
}

// gone reports whether the communicator was aborted or closed.
func (c *Comm) gone() bool { return c.err() != nil }
