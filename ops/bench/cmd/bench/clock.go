package main

import (
	"context"
	"fmt"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// eventClock times a batch with two CUDA timing events on the device's
// default stream (where the benchmark's ops run), as torch_bench.py does
// with torch.cuda.Event: the GPU's time from the first call's work to the
// last's, without the host's launch of the first call or its wake-up after
// the last.
type eventClock struct {
	stream     *cuda.Stream
	start, end *cuda.Event
}

func newEventClock(gpu int) (*eventClock, error) {
	s, err := cuda.DefaultStream(gpu)
	if err != nil {
		return nil, err
	}
	start, err := cuda.NewEvent(gpu, true)
	if err != nil {
		return nil, err
	}
	end, err := cuda.NewEvent(gpu, true)
	if err != nil {
		_ = start.Close()
		return nil, err
	}
	return &eventClock{stream: s, start: start, end: end}, nil
}

func (c *eventClock) Start() error { return c.start.Record(c.stream) }

func (c *eventClock) Stop() (time.Duration, error) {
	if err := c.end.Record(c.stream); err != nil {
		return 0, err
	}
	if err := c.end.Synchronize(context.Background()); err != nil {
		return 0, err
	}
	d, err := cuda.Elapsed(c.start, c.end)
	if err != nil {
		return 0, fmt.Errorf("timing a batch: %w", err)
	}
	return d, nil
}

func (c *eventClock) String() string {
	return "CUDA events around batches of calls on the default stream"
}

// Close destroys the events.
func (c *eventClock) Close() error {
	err := c.start.Close()
	if e := c.end.Close(); err == nil {
		err = e
	}
	return err
}
