// Command ncclbench measures NCCL collectives and peer copies through
// ops/cuda/nccl and ops/cuda, in the form torch_bench.py measures
// torch.distributed: AllReduce and AllGather bus bandwidth (nccl-tests'
// definition) from 8 B to 1 GiB, small-message latency, and the bandwidth
// of To(CUDA(1)) from CUDA(0). It prints one JSON object per measurement
// (compare.py puts two runs side by side) and a table on stderr.
//
// By default it runs one process per GPU (itself again, meeting through
// nccl.Rendezvous on loopback), like torch.distributed; -inprocess runs
// one goroutine per GPU in this process instead.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/bench/internal/ranks"
	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/nccl"
)

var (
	minBytes  = flag.Int64("min", 8, "smallest message, bytes")
	maxBytes  = flag.Int64("max", 1<<30, "largest message, bytes")
	inProcess = flag.Bool("inprocess", false, "one goroutine per GPU in this process instead of one process per GPU")
	peer      = flag.Bool("peer", true, "also measure peer copies cuda:0 -> cuda:1")
	label     = flag.String("label", "go", "the impl field of the JSON lines")
	deadline  = flag.Duration("deadline", 0, "give every call a context with this timeout (so the communicator's watchdog follows each call); 0: context.Background()")
)

// result is one measurement, printed as a JSON line.
type result struct {
	Impl  string  `json:"impl"`
	Op    string  `json:"op"`
	Bytes int64   `json:"bytes"`
	Us    float64 `json:"us"`     // time per operation
	AlgBW float64 `json:"algbw"`  // GB/s: bytes / time
	BusBW float64 `json:"bus_bw"` // GB/s: nccl-tests' bus bandwidth
	Ranks int     `json:"ranks"`
}

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "ncclbench:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx := context.Background()
	if r, ok, err := ranks.Child("NCCLBENCH"); err != nil {
		return err
	} else if ok {
		return child(ctx, r)
	}
	n, err := cuda.DeviceCount()
	if err != nil {
		return err
	}
	if n < 1 {
		return fmt.Errorf("no GPU")
	}
	if v, path, err := nccl.Info(); err != nil {
		return err
	} else {
		fmt.Fprintf(os.Stderr, "NCCL %d from %s, %d GPU(s)\n", v, path, n)
	}
	if *inProcess {
		comms, err := nccl.NewComms(ctx, devices(n))
		if err != nil {
			return err
		}
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i, c := range comms {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = bench(ctx, c)
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
	} else if err := ranks.Spawn(n, "NCCLBENCH", nil); err != nil {
		return err
	}
	if *peer && n >= 2 {
		return peerCopies(ctx)
	}
	return nil
}

func devices(n int) []int {
	d := make([]int, n)
	for i := range d {
		d[i] = i
	}
	return d
}

func child(ctx context.Context, r ranks.Rank) error {
	rank, size := r.Rank, r.Size
	rctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	id, err := nccl.Rendezvous(rctx, r.Addr, rank, size)
	if err != nil {
		return err
	}
	c, err := nccl.NewComm(rctx, rank, id, rank, size)
	if err != nil {
		return err
	}
	if err := bench(ctx, c); err != nil {
		return err
	}
	return c.Close(rctx)
}

// iters is how many operations to time for a message of b bytes.
func iters(b int64) int {
	switch {
	case b <= 1<<20:
		return 200
	case b <= 1<<26:
		return 50
	}
	return 20
}

// bench times AllReduce and AllGather at every size on rank c; rank 0
// prints the results.
func bench(ctx context.Context, c *nccl.Comm) error {
	if *deadline > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *deadline)
		defer cancel()
	}
	n := c.Size()
	buf, err := zeros(ctx, c.Device(), *maxBytes/4)
	if err != nil {
		return err
	}
	defer buf.Free()
	in, err := zeros(ctx, c.Device(), max(1, *maxBytes/4/int64(n)))
	if err != nil {
		return err
	}
	defer in.Free()
	for _, op := range []string{"all_reduce", "all_gather"} {
		for b := *minBytes; b <= *maxBytes; b *= 2 {
			elems := int(b / 4)
			if op == "all_gather" {
				elems = int(b / 4 / int64(n))
			}
			if elems < 1 {
				continue
			}
			x, err := buf.Narrow(0, 0, elems)
			if err != nil {
				return err
			}
			var out *ops.Tensor
			if op == "all_gather" {
				if out, err = buf.Narrow(0, 0, elems*n); err != nil {
					return err
				}
				if x, err = in.Narrow(0, 0, elems); err != nil {
					return err
				}
			}
			once := func() error {
				if op == "all_reduce" {
					return c.AllReduce(ctx, x, nccl.Sum)
				}
				return c.AllGather(ctx, out, x)
			}
			// Warm up, then line the ranks up.
			for i := 0; i < 5; i++ {
				if err := once(); err != nil {
					return err
				}
			}
			if err := barrier(ctx, c, buf); err != nil {
				return err
			}
			k := iters(b)
			start := time.Now()
			for i := 0; i < k; i++ {
				if err := once(); err != nil {
					return err
				}
			}
			if err := c.Synchronize(ctx); err != nil {
				return err
			}
			per := time.Since(start).Seconds() / float64(k)
			bytes := int64(elems) * 4
			if op == "all_gather" {
				bytes *= int64(n)
			}
			alg := float64(bytes) / per / 1e9
			bus := alg * float64(n-1) / float64(n)
			if op == "all_reduce" {
				bus *= 2
			}
			if c.Rank() == 0 {
				emit(result{Impl: *label, Op: op, Bytes: bytes, Us: per * 1e6, AlgBW: alg, BusBW: bus, Ranks: n})
			}
		}
	}
	if err := graphs(ctx, c, buf); err != nil {
		fmt.Fprintf(os.Stderr, "rank %d: AllReduce in a CUDA graph: %v\n", c.Rank(), err)
	}
	return nil
}

// graphs times AllReduce of up to 1 MiB replayed from a CUDA graph of k
// calls captured on a stream of the rank's GPU: the per-call time without
// the host's launch cost (NCCL's non-blocking launch thread included).
func graphs(ctx context.Context, c *nccl.Comm, buf *ops.Tensor) error {
	s, err := cuda.NewStream(c.Device().Index)
	if err != nil {
		return err
	}
	defer s.Close()
	sctx := cuda.WithStream(ctx, s)
	for b := *minBytes; b <= min(*maxBytes, 1<<20); b *= 2 {
		elems := int(b / 4)
		if elems < 1 {
			continue
		}
		x, err := buf.Narrow(0, 0, elems)
		if err != nil {
			return err
		}
		const k = 100
		g, err := cuda.Capture(sctx, s, func(ctx context.Context) error {
			for i := 0; i < k; i++ {
				if err := c.AllReduce(ctx, x, nccl.Sum); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := g.Replay(); err != nil { // warm up
			return err
		}
		if err := barrier(sctx, c, buf); err != nil {
			return err
		}
		const replays = 5
		start := time.Now()
		for i := 0; i < replays; i++ {
			if err := g.Replay(); err != nil {
				return err
			}
		}
		if err := s.Synchronize(ctx); err != nil {
			return err
		}
		per := time.Since(start).Seconds() / (k * replays)
		g.Close()
		if c.Rank() == 0 {
			alg := float64(b) / per / 1e9
			emit(result{Impl: *label, Op: "all_reduce_graph", Bytes: b, Us: per * 1e6, AlgBW: alg, BusBW: alg * 2 * float64(c.Size()-1) / float64(c.Size()), Ranks: c.Size()})
		}
	}
	return nil
}

// barrier all-reduces one element and waits for it.
func barrier(ctx context.Context, c *nccl.Comm, buf *ops.Tensor) error {
	one, err := buf.Narrow(0, 0, 1)
	if err != nil {
		return err
	}
	if err := c.AllReduce(ctx, one, nccl.Sum); err != nil {
		return err
	}
	return c.Synchronize(ctx)
}

func zeros(ctx context.Context, d ops.Device, n int64) (*ops.Tensor, error) {
	x, err := ops.Zeros(ops.Float32, int(n))
	if err != nil {
		return nil, err
	}
	defer x.Free()
	return x.To(ctx, d)
}

// peerCopies times To(CUDA(1)) of tensors on CUDA(0).
func peerCopies(ctx context.Context) error {
	direct, err := cuda.PeerAccess(0, 1)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "peer access cuda:0 -> cuda:1: %v\n", direct)
	for b := int64(1 << 20); b <= *maxBytes; b *= 4 {
		x, err := zeros(ctx, ops.CUDA(0), b/4)
		if err != nil {
			return err
		}
		copyOnce := func() error {
			y, err := x.To(ctx, ops.CUDA(1))
			if err != nil {
				return err
			}
			return y.Free()
		}
		for i := 0; i < 3; i++ {
			if err := copyOnce(); err != nil {
				return err
			}
		}
		for _, d := range []int{0, 1} {
			if err := ops.Synchronize(ctx, ops.CUDA(d)); err != nil {
				return err
			}
		}
		k := iters(b)
		start := time.Now()
		for i := 0; i < k; i++ {
			if err := copyOnce(); err != nil {
				return err
			}
		}
		if err := ops.Synchronize(ctx, ops.CUDA(1)); err != nil {
			return err
		}
		per := time.Since(start).Seconds() / float64(k)
		x.Free()
		emit(result{Impl: *label, Op: "peer_copy", Bytes: b, Us: per * 1e6, AlgBW: float64(b) / per / 1e9, BusBW: float64(b) / per / 1e9, Ranks: 2})
	}
	return nil
}

func emit(r result) {
	b, _ := json.Marshal(r)
	fmt.Println(string(b))
	fmt.Fprintf(os.Stderr, "%-10s %-11s %12d B %10.2f us %8.2f GB/s bus %8.2f GB/s\n", r.Impl, r.Op, r.Bytes, r.Us, r.AlgBW, r.BusBW)
}
