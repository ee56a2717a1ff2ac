// Package eventclock times batches of GPU work with two CUDA timing events
// on one stream, as pairs of torch.cuda.Event do: the GPU's time from the
// first queued work of a batch to its last, without the host's launch of the
// first call or its wake-up after the last. The benchmark programs under
// bench/cmd share it; a Clock is a bench.Clock.
package eventclock

import (
	"context"
	"fmt"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// Clock times the work queued on one stream between Start and Stop.
type Clock struct {
	stream     *cuda.Stream
	start, end *cuda.Event
}

// New returns a Clock of stream s, with its two timing events; Close
// destroys them.
func New(s *cuda.Stream) (*Clock, error) {
	dev := s.Device().Index
	start, err := cuda.NewEvent(dev, true)
	if err != nil {
		return nil, err
	}
	end, err := cuda.NewEvent(dev, true)
	if err != nil {
		_ = start.Close()
		return nil, err
	}
	return &Clock{stream: s, start: start, end: end}, nil
}

// Start marks the beginning of a batch on the stream.
func (c *Clock) Start() error { return c.start.Record(c.stream) }

// Stop marks the end of the batch, waits for its work and returns the
// device time between the two marks.
func (c *Clock) Stop() (time.Duration, error) {
	if err := c.end.Record(c.stream); err != nil {
		return 0, err
	}
	if err := c.end.Synchronize(context.Background()); err != nil {
		return 0, err
	}
	d, err := cuda.Elapsed(c.start, c.end)
	if err != nil {
		return 0, fmt.Errorf("timing a batch on %v: %w", c.stream, err)
	}
	return d, nil
}

// String describes the clock for a report.
func (c *Clock) String() string {
	return fmt.Sprintf("CUDA events around batches of calls on %v", c.stream)
}

// Close destroys the events.
func (c *Clock) Close() error {
	err := c.start.Close()
	if e := c.end.Close(); err == nil {
		err = e
	}
	return err
}
