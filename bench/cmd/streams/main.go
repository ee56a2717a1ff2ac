// Command streams measures the CUDA execution model of ops/cuda against
// PyTorch: independent chains of small ops from two goroutines on two
// streams against one stream, and a chain of 20 ops launched eagerly
// against the same chain captured into a CUDA graph and replayed. It
// prints a markdown table; with --torch (the JSON of
// bench/torch_streams.py, run on the same machine just before) the
// PyTorch figures and the targets stand beside ours.
//
//	streams [--chains 400] [--samples 7] [--torch torch_streams.json] [--json go_streams.json]
//
// Every op works on 4096 float32 elements: AddScalar (x + 0.25) and
// Scale (0.5 x) alternate, as x + 0.25 and x * 0.5 do in PyTorch, each allocating its output
// and freeing its input, as PyTorch eager does. A sample of a row is the
// host time from the first launch to the end of a synchronization, divided
// by the number of ops; the "events" rows time the same work with CUDA
// events on the stream instead. Rows report the median of --samples.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"sync"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/bench/internal/chain"
	"github.com/rules-cuda-go/rules_cuda_go/bench/internal/eventclock"
	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

const elems = 4096

func main() {
	chains := flag.Int("chains", 400, "20-op chains per goroutine and sample")
	samples := flag.Int("samples", 7, "samples per row (the median is reported)")
	torchJSON := flag.String("torch", "", "JSON of torch_streams.py to compare with")
	jsonOut := flag.String("json", "", "write the results as JSON to this file")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the eager rows to this file (go tool pprof)")
	flag.Parse()
	if err := run(*chains, *samples, *torchJSON, *jsonOut, *cpuProfile); err != nil {
		fmt.Fprintln(os.Stderr, "streams:", err)
		os.Exit(1)
	}
}

// Row names, shared with torch_streams.py.
const (
	rowOne         = "one_stream"
	rowTwoDefault  = "two_threads_default_stream"
	rowTwoStreams  = "two_threads_two_streams"
	rowEager       = "chain20_eager"
	rowEagerEvents = "chain20_eager_events"
	rowGraph       = "chain20_graph"
	rowGraphEvents = "chain20_graph_events"
)

var rowTitles = map[string]string{
	rowOne:         "2 chains from 1 goroutine on 1 stream (µs per op)",
	rowTwoDefault:  "2 goroutines, 1 chain each, both on the default stream (µs per op)",
	rowTwoStreams:  "2 goroutines x 2 streams, 1 chain each (µs per op)",
	rowEager:       "20-op chain eager, per op (host clock)",
	rowEagerEvents: "20-op chain eager, per op (CUDA events)",
	rowGraph:       "20-op chain graph replay, per op (host clock)",
	rowGraphEvents: "20-op chain graph replay, per op (CUDA events)",
}

var rowOrder = []string{rowOne, rowTwoDefault, rowTwoStreams, rowEager, rowEagerEvents, rowGraph, rowGraphEvents}

func run(chains, samples int, torchJSON, jsonOut, cpuProfile string) error {
	if ok, err := cuda.Available(); !ok {
		return fmt.Errorf("needs a GPU: %w", err)
	}
	info, err := cuda.Info(0)
	if err != nil {
		return err
	}
	b := &bencher{chains: chains}
	res := map[string]float64{}
	measure := func(name string, f func() (float64, error)) error {
		if _, err := f(); err != nil { // warm-up
			return fmt.Errorf("%s: %w", name, err)
		}
		var xs []float64
		for range samples {
			v, err := f()
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			xs = append(xs, v)
		}
		slices.Sort(xs)
		res[name] = xs[len(xs)/2]
		fmt.Fprintf(os.Stderr, "%-28s %8.2f µs/op (min %.2f)\n", name, res[name], xs[0])
		return nil
	}
	steps := []struct {
		name string
		f    func() (float64, error)
	}{
		{rowOne, b.oneStream},
		{rowTwoDefault, func() (float64, error) { return b.twoGoroutines(false) }},
		{rowTwoStreams, func() (float64, error) { return b.twoGoroutines(true) }},
		{rowEager, func() (float64, error) { return b.eager(false) }},
		{rowEagerEvents, func() (float64, error) { return b.eager(true) }},
		{rowGraph, func() (float64, error) { return b.graph(false) }},
		{rowGraphEvents, func() (float64, error) { return b.graph(true) }},
	}
	for _, s := range steps {
		if s.name == rowEager && cpuProfile != "" {
			stop, err := profile(cpuProfile)
			if err != nil {
				return err
			}
			err = measure(s.name, s.f)
			stop()
			if err != nil {
				return err
			}
			continue
		}
		if err := measure(s.name, s.f); err != nil {
			return err
		}
	}
	if err := b.close(); err != nil {
		return err
	}
	var torch map[string]float64
	if torchJSON != "" {
		data, err := os.ReadFile(torchJSON)
		if err != nil {
			return err
		}
		var doc struct {
			Rows map[string]float64 `json:"rows"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return fmt.Errorf("reading %s: %w", torchJSON, err)
		}
		torch = doc.Rows
	}
	printTable(os.Stdout, info.Name, res, torch)
	if jsonOut != "" {
		data, _ := json.MarshalIndent(map[string]any{"device": info.Name, "unit": "us_per_op", "rows": res}, "", "  ")
		if err := os.WriteFile(jsonOut, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// bencher holds the inputs and the graph between samples.
type bencher struct {
	chains int
	g      *cuda.Graph
	gs     *cuda.Stream
}

func (b *bencher) close() error {
	if b.g == nil {
		return nil
	}
	return errors.Join(b.g.Close(), b.gs.Close())
}

// input returns a fresh 4096-element float32 tensor on cuda:0.
func input() (*ops.Tensor, error) {
	ctx := context.Background()
	x, err := ops.Full(1, ops.Float32, elems)
	if err != nil {
		return nil, err
	}
	return x.To(ctx, ops.CUDA(0))
}

// chains runs n chains on the stream of ctx and waits for them.
func chains(ctx context.Context, x *ops.Tensor, n int) error {
	for range n {
		y, err := chain.Eager(ctx, x)
		if err != nil {
			return err
		}
		y.Free()
	}
	return cuda.StreamFrom(ctx, 0).Synchronize(ctx)
}

func (b *bencher) oneStream() (float64, error) {
	s, err := cuda.NewStream(0)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	ctx := cuda.WithStream(context.Background(), s)
	x, err := input()
	if err != nil {
		return 0, err
	}
	if err := ops.Synchronize(context.Background(), ops.CUDA(0)); err != nil {
		return 0, err
	}
	t0 := time.Now()
	if err := chains(ctx, x, 2*b.chains); err != nil {
		return 0, err
	}
	return perOp(time.Since(t0), 2*b.chains*chain.Ops), nil
}

func (b *bencher) twoGoroutines(streams bool) (float64, error) {
	ctx := context.Background()
	ctxs := make([]context.Context, 2)
	xs := make([]*ops.Tensor, 2)
	for i := range ctxs {
		ctxs[i] = context.Background()
		if streams {
			s, err := cuda.NewStream(0)
			if err != nil {
				return 0, err
			}
			defer s.Close()
			ctxs[i] = cuda.WithStream(ctxs[i], s)
		}
		x, err := input()
		if err != nil {
			return 0, err
		}
		xs[i] = x
	}
	if err := ops.Synchronize(ctx, ops.CUDA(0)); err != nil {
		return 0, err
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	start := make(chan struct{})
	for i := range ctxs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			if streams {
				errs[i] = chains(ctxs[i], xs[i], b.chains)
				return
			}
			for range b.chains {
				y, err := chain.Eager(ctxs[i], xs[i])
				if err != nil {
					errs[i] = err
					return
				}
				y.Free()
			}
		}()
	}
	t0 := time.Now()
	close(start)
	wg.Wait()
	if err := ops.Synchronize(ctx, ops.CUDA(0)); err != nil {
		return 0, err
	}
	d := time.Since(t0)
	for _, err := range errs {
		if err != nil {
			return 0, err
		}
	}
	return perOp(d, 2*b.chains*chain.Ops), nil
}

// timed runs f between two timing events on s (events) or between two
// host clock readings, the second after s is synchronized.
func timed(s *cuda.Stream, events bool, n int, f func() error) (float64, error) {
	if !events {
		if err := s.Synchronize(context.Background()); err != nil {
			return 0, err
		}
		t0 := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		if err := s.Synchronize(context.Background()); err != nil {
			return 0, err
		}
		return perOp(time.Since(t0), n), nil
	}
	clk, err := eventclock.New(s)
	if err != nil {
		return 0, err
	}
	defer clk.Close()
	if err := clk.Start(); err != nil {
		return 0, err
	}
	if err := f(); err != nil {
		return 0, err
	}
	d, err := clk.Stop()
	if err != nil {
		return 0, err
	}
	return perOp(d, n), nil
}

func (b *bencher) eager(events bool) (float64, error) {
	s, err := cuda.DefaultStream(0)
	if err != nil {
		return 0, err
	}
	x, err := input()
	if err != nil {
		return 0, err
	}
	ctx := context.Background()
	return timed(s, events, b.chains*chain.Ops, func() error {
		for range b.chains {
			y, err := chain.Eager(ctx, x)
			if err != nil {
				return err
			}
			y.Free()
		}
		return nil
	})
}

func (b *bencher) graph(events bool) (float64, error) {
	if b.g == nil {
		s, err := cuda.NewStream(0)
		if err != nil {
			return 0, err
		}
		x, err := input()
		if err != nil {
			return 0, err
		}
		g, err := cuda.Capture(context.Background(), s, func(ctx context.Context) error {
			_, err := chain.Eager(ctx, x)
			return err
		})
		if err != nil {
			return 0, err
		}
		b.g, b.gs = g, s
	}
	return timed(b.gs, events, b.chains*chain.Ops, func() error {
		for range b.chains {
			if err := b.g.Replay(); err != nil {
				return err
			}
		}
		return nil
	})
}

// profile starts a CPU profile into file; stop ends it.
func profile(file string) (stop func(), err error) {
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("starting the CPU profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

func perOp(d time.Duration, n int) float64 { return float64(d.Nanoseconds()) / 1e3 / float64(n) }

func printTable(w *os.File, device string, g, torch map[string]float64) {
	fmt.Fprintf(w, "### Streams and graphs (%s, 4096 float32 elements per op)\n\n", device)
	fmt.Fprintln(w, "| row | ours µs/op | PyTorch µs/op | ours/PyTorch |")
	fmt.Fprintln(w, "|---|---:|---:|---:|")
	for _, r := range rowOrder {
		t, ok := torch[r]
		ts, ratio := "–", "–"
		if ok && t > 0 {
			ts, ratio = fmt.Sprintf("%.2f", t), fmt.Sprintf("%.2fx", g[r]/t)
		}
		fmt.Fprintf(w, "| %s | %.2f | %s | %s |\n", rowTitles[r], g[r], ts, ratio)
	}
	fmt.Fprintln(w)
	speed := g[rowOne] / g[rowTwoStreams]
	fmt.Fprintf(w, "- two goroutines x two streams: %.2fx the throughput of one stream (target >= 1.7x): %s\n", speed, verdict(speed >= 1.7))
	if t, ok := torch[rowTwoStreams]; ok && t > 0 {
		fmt.Fprintf(w, "  (PyTorch, two threads x two streams: %.2fx)\n", torch[rowOne]/t)
	}
	gr := g[rowGraphEvents]
	line := fmt.Sprintf("- graph replay %.2f µs per op (target <= 1.5", gr)
	ok := gr <= 1.5
	if t, has := torch[rowGraphEvents]; has {
		line += fmt.Sprintf(" and <= torch.cuda.CUDAGraph's %.2f", t)
		ok = ok && gr <= t
	}
	fmt.Fprintf(w, "%s): %s\n", line, verdict(ok))
	if t, has := torch[rowEager]; has && t > 0 {
		r := g[rowEager] / t
		fmt.Fprintf(w, "- eager chain per op %.2fx PyTorch eager (target <= 0.5x): %s\n", r, verdict(r <= 0.5))
	}
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT met"
}
