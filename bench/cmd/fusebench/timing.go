package main

import (
	"fmt"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/bench/internal/eventclock"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// row is one measurement: a name, the stream its work goes to (nil: the
// one timedRows is given) and the call it times.
type row struct {
	name string
	s    *cuda.Stream
	f    func() error
}

// timedRows returns the median per-call time in µs of each row's call on
// s. The rows' batches are interleaved (one batch of each row per round,
// --samples rounds), so that a drift of the host's speed during the run
// (which decides a call's time where its kernel is shorter than its host
// work) reaches every row alike instead of the rows measured at that time.
func timedRows(s *cuda.Stream, samples int, rows []row) (map[string]float64, error) {
	clocks := map[*cuda.Stream]*eventclock.Clock{}
	defer func() {
		for _, c := range clocks {
			c.Close()
		}
	}()
	clock := func(r row) (*eventclock.Clock, error) {
		rs := r.s
		if rs == nil {
			rs = s
		}
		if c, ok := clocks[rs]; ok {
			return c, nil
		}
		c, err := eventclock.New(rs)
		if err != nil {
			return nil, err
		}
		clocks[rs] = c
		return c, nil
	}
	batch := func(r row, n int) (float64, error) {
		clk, err := clock(r)
		if err != nil {
			return 0, err
		}
		if err := clk.Start(); err != nil {
			return 0, err
		}
		for range n {
			if err := r.f(); err != nil {
				return 0, err
			}
		}
		d, err := clk.Stop()
		return float64(d.Nanoseconds()) / 1e3 / float64(n), err
	}
	calls := make([]int, len(rows))
	for i, r := range rows {
		if _, err := batch(r, 1); err != nil { // warm-up: compiles, allocates
			return nil, fmt.Errorf("%s: %w", r.name, err)
		}
		one, err := batch(r, 1)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.name, err)
		}
		calls[i] = int(min(max(5000/max(one, 1e-3), 3), 2000)) // a batch lasts >= 5 ms
	}
	times := make([][]float64, len(rows))
	for range samples {
		for i, r := range rows {
			v, err := batch(r, calls[i])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", r.name, err)
			}
			times[i] = append(times[i], v)
		}
	}
	med := map[string]float64{}
	for i, r := range rows {
		slices.Sort(times[i])
		med[r.name] = times[i][len(times[i])/2]
	}
	return med, nil
}
