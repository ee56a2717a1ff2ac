// Command matmul times ops.MatMul (cuBLASLt) and the TiledMatMul example op on [n, n] x [n, n]
// per dtype on a GPU and, given the JSON of bench/torch_matmul.py from the same machine,
// prints them side by side with torch.matmul:
//
//	python3 torch_matmul.py --out torch.json && ./matmul --torch torch.json --markdown matmul.md
//
// Rows: float32 (IEEE), float32 with cuda.SetAllowTF32(true) ("tf32"), float64, bfloat16 and
// float16 (accumulating in float32, as torch.matmul does), and the tiled kernel in float32 and
// float64 (-dtypes picks some of them: -dtypes tf32 times ops.MatMul with TF32 alone). Each row
// is timed by CUDA events around batches of calls on the default stream: after 3 untimed calls,
// 3 timed ones size the batches to at least 5 ms of work, and the median of 11 batches gives the
// time per call; TFLOP/s = 2n³ / time. The JSON lists every batch's time in order ("batches"),
// which shows a GPU that slows down under sustained load.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/bench"
	"github.com/rules-cuda-go/rules_cuda_go/bench/internal/eventclock"
	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/examples/tiledmatmul"
)

// dtypeRows are the rows ops.MatMul is timed in, named as torch_matmul.py names them; tiled
// marks those the TiledMatMul example is timed in too.
var dtypeRows = []struct {
	name  string
	dtype ops.DType
	tiled bool
}{
	{"float32", ops.Float32, true},
	{"tf32", ops.Float32, false},
	{"float64", ops.Float64, true},
	{"bfloat16", ops.BFloat16, false},
	{"float16", ops.Float16, false},
}

// rowNames returns the names of dtypeRows, in order.
func rowNames() []string {
	var names []string
	for _, r := range dtypeRows {
		names = append(names, r.name)
	}
	return names
}

// row is one timed case; torch_matmul.py writes the same fields.
type row struct {
	Op    string  `json:"op"`    // "matmul" or "tiled"
	DType string  `json:"dtype"` // a name of dtypeRows
	N     int     `json:"n"`
	Ms    float64 `json:"ms"` // median time per call

	Batches []float64 `json:"batches,omitempty"` // ms per call of each batch, in the order run
}

func main() {
	sizes := flag.String("n", "4096", "comma-separated matrix sizes n")
	torchJSON := flag.String("torch", "", "JSON from torch_matmul.py to compare with")
	markdown := flag.String("markdown", "", "also write the table to this file")
	jsonOut := flag.String("json", "", "write the Go rows as JSON to this file")
	dtypes := flag.String("dtypes", strings.Join(rowNames(), ","), "comma-separated rows to time, of "+strings.Join(rowNames(), ", ")+" (the tiled example runs beside float32 and float64)")
	flag.Parse()
	if err := run(*sizes, *dtypes, *torchJSON, *markdown, *jsonOut); err != nil {
		fmt.Fprintln(os.Stderr, "matmul:", err)
		os.Exit(1)
	}
}

func run(sizes, dtypes, torchJSON, markdown, jsonOut string) error {
	if ok, err := cuda.Available(); !ok {
		return fmt.Errorf("needs a GPU: %v", err)
	}
	v, path, err := cuda.CuBLASInfo()
	if err != nil {
		return err
	}
	var ns []int
	for _, s := range strings.Split(sizes, ",") {
		var n int
		if _, err := fmt.Sscan(s, &n); err != nil || n <= 0 {
			return fmt.Errorf("bad size %q in -n", s)
		}
		ns = append(ns, n)
	}
	want := strings.Split(dtypes, ",")
	for _, d := range want {
		if !slices.Contains(rowNames(), d) {
			return fmt.Errorf("unknown dtype %q in -dtypes: want some of %s", d, strings.Join(rowNames(), ", "))
		}
	}
	var rows []row
	for _, n := range ns {
		for _, op := range []string{"matmul", "tiled"} {
			for _, r := range dtypeRows {
				if !slices.Contains(want, r.name) || (op == "tiled" && !r.tiled) {
					continue
				}
				times, err := timeCase(op, r.dtype, r.name == "tf32", n)
				if err != nil {
					return fmt.Errorf("%s %s n=%d: %w", op, r.name, n, err)
				}
				rows = append(rows, row{Op: op, DType: r.name, N: n, Ms: bench.Median(times), Batches: times})
			}
		}
	}
	var torch []row
	if torchJSON != "" {
		b, err := os.ReadFile(torchJSON)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, &torch); err != nil {
			return fmt.Errorf("%s: %w", torchJSON, err)
		}
	}
	if jsonOut != "" {
		b, _ := json.MarshalIndent(rows, "", "  ")
		if err := os.WriteFile(jsonOut, append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	var out strings.Builder
	fmt.Fprintf(&out, "cuBLASLt %d (%s)\n\n", v, path)
	table(&out, rows, torch)
	fmt.Print(out.String())
	if markdown != "" {
		return os.WriteFile(markdown, []byte(out.String()), 0o644)
	}
	return nil
}

// timeCase returns the milliseconds per call of op on [n, n] inputs of dt (float32 products
// allowed to use TF32 if tf32) in each of 11 batches, in the order they ran.
func timeCase(op string, dt ops.DType, tf32 bool, n int) ([]float64, error) {
	ctx := context.Background()
	prev := cuda.SetAllowTF32(tf32)
	defer cuda.SetAllowTF32(prev)
	s, err := cuda.DefaultStream(0)
	if err != nil {
		return nil, err
	}
	clk, err := eventclock.New(s)
	if err != nil {
		return nil, err
	}
	defer clk.Close()
	var a, b *ops.Tensor
	for i, p := range []**ops.Tensor{&a, &b} {
		x, err := ops.Rand(uint64(i+1), dt, n, n)
		if err == nil {
			x, err = x.To(ctx, ops.CUDA(0))
		}
		if err != nil {
			return nil, err
		}
		*p = x
	}
	call := func() error {
		var c *ops.Tensor
		var err error
		if op == "tiled" {
			c, err = tiledmatmul.TiledMatMul(ctx, a, b)
		} else {
			c, err = ops.MatMul(ctx, a, b)
		}
		if err != nil {
			return err
		}
		return c.Free()
	}
	// Warm up (cuBLASLt's heuristic and kernel loading, the block cache), then time 3 calls to
	// size the batches to >= 5 ms. Sizing from the first calls would count the warm-up: a 4096
	// TF32 product then got batches of one call, whose time included the host's call between
	// the events.
	if _, err := batch(clk, call, 3); err != nil {
		return nil, err
	}
	per, err := batch(clk, call, 3)
	if err != nil {
		return nil, err
	}
	calls := max(1, int(5e-3/max(per.Seconds()/3, 1e-9)))
	var times []float64
	for range 11 {
		d, err := batch(clk, call, calls)
		if err != nil {
			return nil, err
		}
		times = append(times, d.Seconds()*1e3/float64(calls))
	}
	return times, nil
}

// batch times k calls with clk.
func batch(clk *eventclock.Clock, call func() error, k int) (time.Duration, error) {
	if err := clk.Start(); err != nil {
		return 0, err
	}
	for range k {
		if err := call(); err != nil {
			return 0, err
		}
	}
	return clk.Stop()
}

func tflops(n int, ms float64) float64 {
	return 2 * float64(n) * float64(n) * float64(n) / (ms * 1e-3) / 1e12
}

// table writes the markdown table: one line per (n, dtype), ours beside torch.matmul's.
func table(w io.Writer, rows, torch []row) {
	find := func(rs []row, op, dtype string, n int) (float64, bool) {
		for _, r := range rs {
			if r.Op == op && r.DType == dtype && r.N == n {
				return r.Ms, true
			}
		}
		return 0, false
	}
	fmt.Fprintln(w, "| n | dtype | ops.MatMul (ms) | TFLOP/s | torch.matmul (ms) | TFLOP/s | ours / torch speed | TiledMatMul (ms) | TFLOP/s | tiled / torch |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
	var ns []int
	for _, r := range append(slices.Clone(rows), torch...) {
		if !slices.Contains(ns, r.N) {
			ns = append(ns, r.N)
		}
	}
	cell := func(ms float64, ok bool, n int) string {
		if !ok {
			return "– | –"
		}
		return fmt.Sprintf("%.3f | %.1f", ms, tflops(n, ms))
	}
	ratio := func(ours, theirs float64, ok bool) string {
		if !ok {
			return "–"
		}
		return fmt.Sprintf("%.1f%%", 100*theirs/ours)
	}
	for _, n := range ns {
		for _, dt := range rowNames() {
			ms, ok := find(rows, "matmul", dt, n)
			tms, tok := find(torch, "matmul", dt, n)
			ti, tiok := find(rows, "tiled", dt, n)
			if !ok && !tok && !tiok {
				continue
			}
			fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s | %s |\n", n, dt, cell(ms, ok, n), cell(tms, tok, n),
				ratio(ms, tms, ok && tok), cell(ti, tiok, n), ratio(ti, tms, tiok && tok))
		}
	}
}
