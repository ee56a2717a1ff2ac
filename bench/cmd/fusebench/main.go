// Command fusebench measures fused elementwise chains (package ops/fuse)
// against the same chains as separate ops, eagerly and in a CUDA graph,
// and, with --torch (the JSON of bench/torch_fuse.py run on the same
// machine just before), against PyTorch eager, a CUDA graph, torch.compile
// and cupy.fuse, and judges the targets of issue 29.
//
//	fusebench [--sizes 4096,...] [--samples 7] [--torch torch_fuse.json] [--json go_fuse.json]
//	fusebench --first-use   # one call of a new 20-op chain: prints the time to first result
//	fusebench --sizes 4096 --rows poly_hand,poly_fused --cpuprofile cpu.pprof   # where the host time goes
//
// The chain is issue 29's: 20 float32 ops alternating y + 0.25 and y * 0.5.
// Rows per size: copy (a device-to-device copy, the bandwidth reference),
// eager (20 ops), graph (the 20 ops captured with cuda.Capture and
// replayed), fused (one chain call), fused_graph (the call captured and
// replayed), poly_hand (ops.Polynomial) and poly_fused (the polynomial as a
// chain), each also captured and replayed (poly_hand_graph,
// poly_fused_graph: the kernels' own time where a call's host work hides
// it), poly_fwdbwd (the fused polynomial forward and its fused backward
// through autograd). Every figure is the median over --samples batches of
// calls timed with CUDA events on the stream (a batch lasts >= 5 ms); the
// batches of a size's rows are interleaved, one of each row per round, so
// that the host's drift reaches them alike.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/bench/internal/chain"
	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse/fusecuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse/fusetest"
)

func main() {
	sizes := flag.String("sizes", "4096,1048576,67108864,268435456", "element counts, comma-separated")
	samples := flag.Int("samples", 7, "batches per figure (the median is reported)")
	torchJSON := flag.String("torch", "", "JSON of torch_fuse.py to compare with")
	jsonOut := flag.String("json", "", "write the results as JSON to this file")
	from := flag.String("from", "", "print the tables from this JSON of an earlier run (with --torch) instead of measuring")
	firstUse := flag.Bool("first-use", false, "time one call of a new 20-op chain (compile or disk-cache load, module load, launch) and exit")
	rows := flag.String("rows", "", "measure only these rows (comma-separated; default all, and copy always)")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the run (go tool pprof) to this file")
	flag.Parse()
	var err error
	if *cpuProfile != "" {
		stop, perr := startProfile(*cpuProfile)
		if perr != nil {
			fmt.Fprintln(os.Stderr, "fusebench:", perr)
			os.Exit(1)
		}
		defer stop()
	}
	if *firstUse {
		err = timeFirstUse()
	} else {
		err = run(*sizes, *rows, *samples, *torchJSON, *jsonOut, *from)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "fusebench:", err)
		os.Exit(1)
	}
}

// startProfile starts a CPU profile into file and returns what stops it.
func startProfile(file string) (func(), error) {
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "fusebench: --cpuprofile:", err)
		}
	}, nil
}

const pa, pb, pc, pd = 0.5, -1.25, 2.0, 0.75

// timeFirstUse prints the time from building a chain to its first result.
func timeFirstUse() error {
	ctx := context.Background()
	x, err := ops.Full(1, ops.Float32, 4096)
	if err == nil {
		x, err = x.To(ctx, ops.CUDA(0))
	}
	if err == nil {
		err = ops.Synchronize(ctx, ops.CUDA(0))
	}
	if err != nil {
		return err
	}
	t0 := time.Now()
	c := fusetest.Chain20()
	y, err := c.Call1(ctx, []*ops.Tensor{x})
	if err != nil {
		return err
	}
	if _, err := y.Float32s(); err != nil {
		return err
	}
	d := time.Since(t0)
	st := fusecuda.ReadStats()
	out, _ := json.Marshal(map[string]any{"first_use_ms": ms(d), "load_ms": ms(st.LoadTime), "disk_hits": st.Hits})
	fmt.Println(string(out))
	return nil
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

type results struct {
	Device   string                        `json:"device"`
	Rows     map[string]map[string]float64 `json:"rows"` // size -> row -> µs per call
	FirstUse map[string]float64            `json:"first_use_ms,omitempty"`
}

func run(sizeList, rowList string, samples int, torchJSON, jsonOut, from string) error {
	var sizes []int
	for _, s := range strings.Split(sizeList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return fmt.Errorf("--sizes: %q is not a positive count", s)
		}
		sizes = append(sizes, n)
	}
	if from != "" {
		data, err := os.ReadFile(from)
		if err != nil {
			return err
		}
		var res results
		if err := json.Unmarshal(data, &res); err != nil {
			return fmt.Errorf("%s: %w", from, err)
		}
		torch, err := readTorch(torchJSON)
		if err != nil {
			return err
		}
		printTable(os.Stdout, res, torch, sizes)
		return nil
	}
	if ok, why := cuda.Available(); !ok {
		return fmt.Errorf("needs a GPU: %v", why)
	}
	info, err := cuda.Info(0)
	if err != nil {
		return err
	}
	res := results{Device: info.Name, Rows: map[string]map[string]float64{}}
	ctx := context.Background()
	s, err := cuda.DefaultStream(0)
	if err != nil {
		return err
	}
	c20, poly := fusetest.Chain20(), fusetest.Polynomial()
	wanted := func(row string) bool {
		return rowList == "" || row == "copy" || slices.Contains(strings.Split(rowList, ","), row)
	}
	contiguous := ops.Builtin.Contiguous
	for _, n := range sizes {
		r := map[string]float64{}
		res.Rows[strconv.Itoa(n)] = r
		x, err := ops.Full(1, ops.Float32, n)
		if err == nil {
			x, err = x.To(ctx, ops.CUDA(0))
		}
		if err != nil {
			return err
		}
		var rows []row
		add := func(name string, f func() error) {
			if wanted(name) {
				rows = append(rows, row{name, nil, f})
			}
		}
		free := func(t *ops.Tensor, err error) error {
			if err == nil {
				t.Free()
			}
			return err
		}
		// The copy: the Contiguous op's kernel (as bench's copy row).
		add("copy", func() error { return free(contiguous.Call(ctx, []*ops.Tensor{x}, ops.Args{})) })
		add("eager", func() error { return free(chain.Eager(ctx, x)) })
		add("fused", func() error { return free(c20.Call1(ctx, []*ops.Tensor{x})) })
		add("poly_hand", func() error { return free(ops.Polynomial(ctx, x, pa, pb, pc, pd)) })
		add("poly_fused", func() error { return free(poly.Call1(ctx, []*ops.Tensor{x}, pa, pb, pc, pd)) })
		// The graph rows: each call captured on a stream of its own and
		// replayed there, timed with the other rows.
		var closers []func()
		closeAll := func() {
			for _, c := range closers {
				c()
			}
		}
		for _, gr := range []struct {
			name string
			f    func(ctx context.Context) error
		}{
			{"graph", func(ctx context.Context) error { _, err := chain.Eager(ctx, x); return err }},
			{"fused_graph", func(ctx context.Context) error { _, err := c20.Call1(ctx, []*ops.Tensor{x}); return err }},
			{"poly_hand_graph", func(ctx context.Context) error { _, err := ops.Polynomial(ctx, x, pa, pb, pc, pd); return err }},
			{"poly_fused_graph", func(ctx context.Context) error {
				_, err := poly.Call1(ctx, []*ops.Tensor{x}, pa, pb, pc, pd)
				return err
			}},
		} {
			if !wanted(gr.name) {
				continue
			}
			gs, err := cuda.NewStream(0)
			if err != nil {
				closeAll()
				return err
			}
			g, err := cuda.Capture(ctx, gs, gr.f)
			if err != nil {
				gs.Close()
				closeAll()
				return fmt.Errorf("capturing %s: %w", gr.name, err)
			}
			closers = append(closers, func() { g.Close(); gs.Close() })
			rows = append(rows, row{gr.name, gs, g.Replay})
		}
		leaf := x.Detach()
		if err := leaf.SetRequiresGrad(true); err != nil {
			return err
		}
		g, err := ops.Full(1, ops.Float32, n)
		if err == nil {
			g, err = g.To(ctx, ops.CUDA(0))
		}
		if err != nil {
			return err
		}
		add("poly_fwdbwd", func() error {
			y, err := poly.Call1(ctx, []*ops.Tensor{leaf}, pa, pb, pc, pd)
			if err != nil {
				return err
			}
			defer y.Free()
			if err := y.BackwardWithGrad(ctx, g); err != nil {
				return err
			}
			// Backward hands the backward kernel's output to leaf as its
			// Grad: freed here, as a training step frees it after the
			// update, not left to the garbage collector.
			dx := leaf.Grad()
			leaf.ZeroGrad()
			return dx.Free()
		})
		times, err := timedRows(s, samples, rows)
		closeAll()
		if err != nil {
			return fmt.Errorf("at %d elements: %w", n, err)
		}
		maps.Copy(r, times)
		fmt.Fprintf(os.Stderr, "%d: %v\n", n, r)
		g.Free()
		x.Free()
	}
	torch, err := readTorch(torchJSON)
	if err != nil {
		return err
	}
	printTable(os.Stdout, res, torch, sizes)
	if jsonOut != "" {
		data, _ := json.MarshalIndent(res, "", " ")
		if err := os.WriteFile(jsonOut, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
