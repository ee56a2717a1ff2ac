// Command bench measures the ops of package ops on a GPU or the CPU and
// compares them with PyTorch.
//
// Measure (progress on stderr, the markdown table on stdout):
//
//	bench [--device cuda|cpu] [--max-elems N] [--json F] [--markdown F] [--png F] ...
//
// Compare with the JSON of bench/torch_bench.py:
//
//	bench compare --go go.json --torch torch.json [--markdown F] [--png F] [--json F] [--summary F]
//
// See package bench for what is measured and how.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/bench"
	"github.com/rules-cuda-go/rules_cuda_go/bench/internal/eventclock"
	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
}

// Defaults per device.
const (
	cudaMaxElems = 1 << 28
	cpuMaxElems  = 1 << 22
)

var (
	cudaSoftmax = "65536x128,16384x1024,4096x4096,2048x16384"
	cpuSoftmax  = "8192x128,1024x1024,256x4096"
	cudaMatMul  = "1024,2048,4096"
	cpuMatMul   = "128,256,512"
)

// dtypeByName maps the names of --dtypes (bench.DTypeNames) to dtypes.
var dtypeByName = map[string]ops.DType{
	"float32":  ops.Float32,
	"float64":  ops.Float64,
	"float16":  ops.Float16,
	"bfloat16": ops.BFloat16,
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "compare" {
		return compare(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, `Usage:
  bench [flags]             time the ops on a device (progress on stderr, markdown on stdout)
  bench compare --go F --torch F [--markdown F] [--png F] [--json F] [--summary F]
                            compare with torch_bench.py's JSON and judge the targets

Each op is timed in batches of calls (a batch lasts at least --batch-ms): by
CUDA events around the batch on a GPU, as torch_bench.py does, and by the host
clock between two ops.Synchronize calls on the CPU; the result is the median
over --repeats batches of the time per call. Latencies use the host clock.
Bandwidth = bytes the op must move / time; %% of copy compares with a
device-to-device copy of as many elements.

Flags:
`)
		fs.PrintDefaults()
	}
	device := fs.String("device", "cuda", "cuda or cpu")
	gpu := fs.Int("gpu", 0, "CUDA device index")
	maxElems := fs.Int64("max-elems", 0, fmt.Sprintf("largest tensor in elements (default %d on cuda, %d on cpu)", cudaMaxElems, cpuMaxElems))
	sizes := fs.String("sizes", "", "comma-separated element counts of the elementwise sweep (default powers of 4 from 4096 to --max-elems)")
	dtypes := fs.String("dtypes", "float32,float64", "comma-separated dtypes: "+strings.Join(bench.DTypeNames, ", "))
	opsFlag := fs.String("ops", strings.Join(bench.AllOps, ","), "comma-separated ops (the copy baseline is always measured)")
	softmax := fs.String("softmax-shapes", "", fmt.Sprintf("comma-separated BxD RowSoftmax shapes (default %s on cuda, %s on cpu)", cudaSoftmax, cpuSoftmax))
	matmul := fs.String("matmul-sizes", "", fmt.Sprintf("comma-separated n of n×n MatMuls (default %s on cuda, %s on cpu)", cudaMatMul, cpuMatMul))
	repeats := fs.Int("repeats", 15, "timed batches per measurement (the median is reported)")
	warmup := fs.Int("warmup", 3, "untimed calls before timing")
	batchMs := fs.Float64("batch-ms", 3, "minimum duration of a timed batch in milliseconds")
	latElems := fs.Int("latency-elems", 4096, "elements of the per-call latency measurements (0: skip them)")
	latCalls := fs.Int("latency-calls", 1000, "calls per latency measurement")
	jsonOut := fs.String("json", "", "write the results as JSON to this file")
	mdOut := fs.String("markdown", "", "write the markdown tables to this file")
	pngOut := fs.String("png", "", "write the bandwidth plot to this PNG file")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (flags only, or the compare subcommand)", fs.Arg(0))
	}

	cfg := bench.Config{Repeats: *repeats, Warmup: *warmup, MinBatch: time.Duration(*batchMs * float64(time.Millisecond)),
		LatencyElems: *latElems, LatencyCalls: *latCalls, Log: stderr}
	if *latElems == 0 {
		cfg.LatencyElems = -1
	}
	if *quiet {
		cfg.Log = io.Discard
	}
	var desc bench.DeviceDesc
	switch *device {
	case "cuda":
		if ok, err := cuda.Available(); !ok {
			return fmt.Errorf("no usable GPU (%w); use --device cpu", err)
		}
		info, err := cuda.Info(*gpu)
		if err != nil {
			return err
		}
		cfg.Device = ops.CUDA(*gpu)
		s, err := cuda.DefaultStream(*gpu)
		if err != nil {
			return err
		}
		clk, err := eventclock.New(s) // where the benchmark's ops run
		if err != nil {
			return err
		}
		defer clk.Close()
		cfg.Clock = clk
		desc = bench.DeviceDesc{Type: "cuda", Index: *gpu, Name: info.Name, Capability: fmt.Sprintf("%d.%d", info.Major, info.Minor), SMs: info.SMs}
		cfg.MaxElems = cudaMaxElems
		*softmax = orDefault(*softmax, cudaSoftmax)
		*matmul = orDefault(*matmul, cudaMatMul)
	case "cpu":
		cfg.Device = ops.CPU
		desc = bench.DeviceDesc{Type: "cpu"}
		cfg.MaxElems = cpuMaxElems
		*softmax = orDefault(*softmax, cpuSoftmax)
		*matmul = orDefault(*matmul, cpuMatMul)
	default:
		return fmt.Errorf("--device is %q, expected cuda or cpu", *device)
	}
	if *maxElems > 0 {
		cfg.MaxElems = *maxElems
	}
	var err error
	if *sizes != "" {
		if cfg.Sizes, err = parseInts(*sizes); err != nil {
			return fmt.Errorf("--sizes: %w", err)
		}
	}
	if cfg.SoftmaxShapes, err = parseShapes(*softmax); err != nil {
		return fmt.Errorf("--softmax-shapes: %w", err)
	}
	if cfg.MatMulSizes, err = parseInts(*matmul); err != nil {
		return fmt.Errorf("--matmul-sizes: %w", err)
	}
	for _, d := range splitList(*dtypes) {
		dt, ok := dtypeByName[d]
		if !ok {
			return fmt.Errorf("--dtypes: %q is not one of %s", d, strings.Join(bench.DTypeNames, ", "))
		}
		cfg.DTypes = append(cfg.DTypes, dt)
	}
	for _, op := range splitList(*opsFlag) {
		if !slices.Contains(bench.AllOps, op) {
			return fmt.Errorf("--ops: unknown op %q (known: %s)", op, strings.Join(bench.AllOps, ", "))
		}
		cfg.Ops = append(cfg.Ops, op)
	}

	rep, err := bench.Run(cfg)
	if err != nil {
		return err
	}
	rep.Device = desc
	var md bytes.Buffer
	rep.WriteMarkdown(&md)
	if _, err := stdout.Write(md.Bytes()); err != nil {
		return err
	}
	return writeOutputs(*jsonOut, rep.WriteJSON, *mdOut, md.Bytes(), *pngOut, bench.ReportPanels(rep))
}

func compare(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	goIn := fs.String("go", "", "JSON written by bench --json (required)")
	torchIn := fs.String("torch", "", "JSON written by torch_bench.py --json (required)")
	jsonOut := fs.String("json", "", "write the targets and both reports as JSON to this file")
	mdOut := fs.String("markdown", "", "write the side-by-side markdown to this file")
	pngOut := fs.String("png", "", "write the bandwidth plot (Go solid, PyTorch dashed) to this PNG file")
	summaryOut := fs.String("summary", "", "write the headline table to this file; in a file with a section between\n"+
		bench.SummaryBegin+"FOLDER --> and "+bench.SummaryEnd+" lines (docs/benchmarks.md), replace that section")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *goIn == "" || *torchIn == "" || fs.NArg() > 0 {
		fs.Usage()
		return errors.New("compare needs --go and --torch, and no other arguments")
	}
	for _, p := range []*string{goIn, torchIn, jsonOut, mdOut, pngOut, summaryOut} {
		*p = inWorkspace(*p)
	}
	goRep, err := bench.ReadJSON(*goIn)
	if err != nil {
		return err
	}
	torchRep, err := bench.ReadJSON(*torchIn)
	if err != nil {
		return err
	}
	c := bench.Compare(goRep, torchRep)
	var md bytes.Buffer
	c.WriteMarkdown(&md)
	if _, err := stdout.Write(md.Bytes()); err != nil {
		return err
	}
	if *summaryOut != "" {
		if err := writeSummary(*summaryOut, c); err != nil {
			return err
		}
	}
	return writeOutputs(*jsonOut, c.WriteJSON, *mdOut, md.Bytes(), *pngOut, c.Panels())
}

// inWorkspace resolves a relative path against the directory bazel run was
// started from (BUILD_WORKSPACE_DIRECTORY), not the runfiles tree.
func inWorkspace(p string) string {
	if dir := os.Getenv("BUILD_WORKSPACE_DIRECTORY"); p != "" && dir != "" && !filepath.IsAbs(p) {
		return filepath.Join(dir, p)
	}
	return p
}

// writeSummary writes c's headline table to path, or into its summary
// section when it has one.
func writeSummary(path string, c *bench.Comparison) error {
	var summary bytes.Buffer
	c.WriteSummary(&summary)
	out := summary.Bytes()
	doc, err := os.ReadFile(path)
	switch {
	case err == nil && bytes.Contains(doc, []byte(bench.SummaryBegin)):
		if out, err = bench.ReplaceSummary(doc, out); err != nil {
			return fmt.Errorf("--summary %s: %w", path, err)
		}
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return err
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		return fmt.Errorf("--summary: %w", err)
	}
	return nil
}

func writeOutputs(jsonPath string, writeJSON func(string) error, mdPath string, md []byte, pngPath string, panels []bench.Panel) error {
	if jsonPath != "" {
		if err := writeJSON(jsonPath); err != nil {
			return err
		}
	}
	if mdPath != "" {
		if err := os.WriteFile(mdPath, md, 0o644); err != nil {
			return err
		}
	}
	if pngPath != "" {
		if err := bench.WritePNGFile(pngPath, panels); err != nil {
			return err
		}
	}
	return nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range splitList(s) {
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func parseShapes(s string) ([][2]int, error) {
	var out [][2]int
	for _, f := range splitList(s) {
		b, d, ok := strings.Cut(f, "x")
		bn, err1 := strconv.Atoi(b)
		dn, err2 := strconv.Atoi(d)
		if !ok || err1 != nil || err2 != nil || bn <= 0 || dn <= 0 {
			return nil, fmt.Errorf("%q is not a shape BxD", f)
		}
		out = append(out, [2]int{bn, dn})
	}
	return out, nil
}
