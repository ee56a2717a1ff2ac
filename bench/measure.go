package bench

// Timing: batches of calls, repeated into samples, for throughput (MetricTime, timed by
// Config.Clock) and per-call latency (the host clock).

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// A Clock times the work of a batch of calls: Start is called before the
// first call and Stop after the last; Stop returns the time the batch's work
// took. Package bench's own is HostClock; cmd/bench times GPU batches with
// CUDA events, as torch_bench.py does.
type Clock interface {
	Start() error
	Stop() (time.Duration, error)
	// String describes the clock for the report, as in "host clock around
	// batches of calls between ops.Synchronize calls".
	String() string
}

// HostClock is the host's clock between two ops.Synchronize calls of a
// device: what a caller that waits for the result sees, the launch of the
// first call and the wake-up after the last included.
type HostClock struct {
	Device ops.Device
	t0     time.Time
}

// Start waits for the device's queued work and starts the clock.
func (h *HostClock) Start() error {
	ctx := context.Background()
	if err := ops.Synchronize(ctx, h.Device); err != nil {
		return err
	}
	h.t0 = time.Now()
	return nil
}

// Stop waits for the device's queued work and returns the time since Start.
func (h *HostClock) Stop() (time.Duration, error) {
	ctx := context.Background()
	if err := ops.Synchronize(ctx, h.Device); err != nil {
		return 0, err
	}
	return time.Since(h.t0), nil
}

func (h *HostClock) String() string {
	return "host clock around batches of calls between ops.Synchronize calls"
}

// timeBatch times k calls with clk.
func (r *runner) timeBatch(clk Clock, c call, k int) (time.Duration, error) {
	if err := clk.Start(); err != nil {
		return 0, err
	}
	for range k {
		if err := c.run(); err != nil {
			return 0, err
		}
	}
	return clk.Stop()
}

// maxBatch bounds the calls in one sample.
const maxBatch = 1 << 16

// measureOp appends the MetricTime result of op on dtype dt and shape.
func (r *runner) measureOp(op string, dt ops.DType, shape []int) {
	res := Result{Op: op, DType: dt.String(), Shape: slices.Clone(shape), Elems: int64(numel(shape)), Metric: MetricTime}
	err := func() error {
		c, err := r.prepare(op, shape)
		if err != nil {
			return err
		}
		for range r.cfg.Warmup {
			if err := c.run(); err != nil {
				return err
			}
		}
		// Calibrate the batch: one call, then ten if that was short.
		d, err := r.timeBatch(r.host, c, 1)
		if err != nil {
			return err
		}
		per := d.Seconds()
		if d < r.cfg.MinBatch/10 {
			if d, err = r.timeBatch(r.host, c, 10); err != nil {
				return err
			}
			per = d.Seconds() / 10
		}
		k := BatchSize(r.cfg.MinBatch.Seconds(), per)
		samples := make([]float64, r.cfg.Repeats)
		for i := range samples {
			d, err := r.timeBatch(r.cfg.Clock, c, k)
			if err != nil {
				return err
			}
			samples[i] = d.Seconds() / float64(k)
		}
		res.Seconds, res.MinSeconds, res.Repeats, res.Batch = Median(samples), Min(samples), len(samples), k
		return nil
	}()
	r.add(res, err)
}

// BatchSize returns the number of calls of perCall seconds each that last
// at least minBatch seconds, between 1 and 65536.
func BatchSize(minBatch, perCall float64) int {
	if perCall <= 0 || math.IsNaN(perCall) {
		return maxBatch
	}
	k := math.Ceil(minBatch / perCall)
	return int(min(max(k, 1), maxBatch))
}

// measureLatency appends the MetricLatencySync and MetricLatencyBatch
// results of op on dtype dt and shape.
func (r *runner) measureLatency(op string, dt ops.DType, shape []int) {
	ctx := context.Background()
	base := Result{Op: op, DType: dt.String(), Shape: slices.Clone(shape), Elems: int64(numel(shape))}
	calls := r.cfg.LatencyCalls
	c, err := r.prepare(op, shape)
	if err == nil {
		for i := 0; i < max(r.cfg.Warmup, 10) && err == nil; i++ {
			err = c.run()
		}
	}
	// One call and a synchronization, calls times.
	syncRes := base
	syncRes.Metric = MetricLatencySync
	if err == nil {
		err = func() error {
			samples := make([]float64, calls)
			for i := range samples {
				t0 := time.Now()
				if err := c.run(); err != nil {
					return err
				}
				if err := ops.Synchronize(ctx, r.cfg.Device); err != nil {
					return err
				}
				samples[i] = time.Since(t0).Seconds()
			}
			syncRes.Seconds, syncRes.MinSeconds, syncRes.Repeats, syncRes.Batch = Median(samples), Min(samples), calls, 1
			return nil
		}()
	}
	r.add(syncRes, err)
	// calls calls back to back, one synchronization; 5 samples.
	batchRes := base
	batchRes.Metric = MetricLatencyBatch
	if err == nil {
		err = func() error {
			samples := make([]float64, 5)
			for i := range samples {
				d, err := r.timeBatch(r.host, c, calls)
				if err != nil {
					return err
				}
				samples[i] = d.Seconds() / float64(calls)
			}
			batchRes.Seconds, batchRes.MinSeconds, batchRes.Repeats, batchRes.Batch = Median(samples), Min(samples), len(samples), calls
			return nil
		}()
	}
	r.add(batchRes, err)
}

func (r *runner) add(res Result, err error) {
	ctx := context.Background()
	if err != nil {
		res.Error = err.Error()
		// Let the device finish and drop what the failed call left.
		_ = ops.Synchronize(ctx, r.cfg.Device)
		runtime.GC()
		fmt.Fprintf(r.cfg.Log, "%-28s %-8s %-12s %-13s error: %v\n", res.Op, res.DType, ShapeString(res.Shape), res.Metric, err)
	} else {
		fmt.Fprintf(r.cfg.Log, "%-28s %-8s %-12s %-13s %12.3f µs  (batch %d)\n", res.Op, res.DType, ShapeString(res.Shape), res.Metric, res.Seconds*1e6, res.Batch)
	}
	r.rep.Results = append(r.rep.Results, res)
}
