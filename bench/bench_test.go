package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

func TestMedianMin(t *testing.T) {
	for _, tc := range []struct {
		xs          []float64
		median, min float64
	}{
		{[]float64{3, 1, 2}, 2, 1},
		{[]float64{4, 1, 3, 2}, 2.5, 1},
		{[]float64{5}, 5, 5},
		{[]float64{2, 2, 9, 2, 7}, 2, 2},
	} {
		in := slices.Clone(tc.xs)
		if got := Median(in); got != tc.median {
			t.Errorf("Median(%v) = %v, want %v", tc.xs, got, tc.median)
		}
		if got := Min(in); got != tc.min {
			t.Errorf("Min(%v) = %v, want %v", tc.xs, got, tc.min)
		}
		if !slices.Equal(in, tc.xs) {
			t.Errorf("Median modified its input: %v", in)
		}
	}
	if !math.IsNaN(Median(nil)) || !math.IsNaN(Min(nil)) {
		t.Error("Median and Min of nothing should be NaN")
	}
}

func TestBytesAndFlops(t *testing.T) {
	const n = 1000
	for _, tc := range []struct {
		op    string
		size  int
		shape []int
		want  int64
	}{
		{OpCopy, 4, []int{n}, 2 * 4 * n},
		{OpAddScalar, 8, []int{n}, 2 * 8 * n},
		{OpAxpby, 4, []int{n}, 3 * 4 * n},
		{OpNorm, 4, []int{n}, 4 * (n + 1)},
		{OpPolynomial, 4, []int{n}, 2 * 4 * n},
		{OpPolyFwdBwd, 4, []int{n}, 5 * 4 * n},
		{OpPolyAutograd, 8, []int{n}, 5 * 8 * n},
		{OpRowSoftmax, 4, []int{64, 128}, 2 * 4 * 64 * 128},
		{OpMatMul, 8, []int{64, 64}, 3 * 8 * 64 * 64},
		{OpAxpby, ElemSize("bfloat16"), []int{n}, 3 * 2 * n},
		{OpPolyFwdBwd, ElemSize("float16"), []int{n}, 5 * 2 * n},
		{"unknown", 4, []int{n}, 0},
	} {
		if got := Bytes(tc.op, tc.size, tc.shape); got != tc.want {
			t.Errorf("Bytes(%s, %d, %v) = %d, want %d", tc.op, tc.size, tc.shape, got, tc.want)
		}
	}
	for dt, want := range map[string]int{"float32": 4, "float64": 8, "float16": 2, "bfloat16": 2, "int8": 0} {
		if got := ElemSize(dt); got != want {
			t.Errorf("ElemSize(%s) = %d, want %d", dt, got, want)
		}
	}
	if got := Flops(OpMatMul, []int{4096, 4096}); got != 2*4096*4096*4096.0 {
		t.Errorf("Flops(matmul 4096) = %v", got)
	}
	if got := Flops(OpAxpby, []int{4096}); got != 0 {
		t.Errorf("Flops(axpby) = %v, want 0", got)
	}
}

func TestDefaultSizes(t *testing.T) {
	for _, tc := range []struct {
		max  int64
		want []int
	}{
		{1 << 28, []int{1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22, 1 << 24, 1 << 26, 1 << 28}},
		{1 << 20, []int{1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20}},
		{1 << 27, []int{1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22, 1 << 24, 1 << 26, 1 << 27}},
		{4096, []int{4096}},
		{1000, nil},
	} {
		if got := DefaultSizes(tc.max); !slices.Equal(got, tc.want) {
			t.Errorf("DefaultSizes(%d) = %v, want %v", tc.max, got, tc.want)
		}
	}
}

func TestBatchSize(t *testing.T) {
	for _, tc := range []struct {
		minBatch, per float64
		want          int
	}{
		{3e-3, 1e-3, 3},
		{3e-3, 0.7e-3, 5},
		{3e-3, 10e-3, 1},
		{3e-3, 1e-9, 1 << 16},
		{3e-3, 0, 1 << 16},
	} {
		if got := BatchSize(tc.minBatch, tc.per); got != tc.want {
			t.Errorf("BatchSize(%v, %v) = %d, want %d", tc.minBatch, tc.per, got, tc.want)
		}
	}
}

func TestHumanCount(t *testing.T) {
	for n, want := range map[int64]string{4096: "4K", 1 << 28: "256M", 1 << 30: "1G", 1000: "1000", 3 << 20: "3M", 4096 + 1: "4097"} {
		if got := HumanCount(n); got != want {
			t.Errorf("HumanCount(%d) = %q, want %q", n, got, want)
		}
	}
}

// timeResult is a MetricTime result of a 1-D op of n elements.
func timeResult(op, dtype string, n int, seconds float64) Result {
	return Result{Op: op, DType: dtype, Shape: []int{n}, Elems: int64(n), Metric: MetricTime, Seconds: seconds, MinSeconds: seconds, Repeats: 3, Batch: 1}
}

func TestAnnotate(t *testing.T) {
	const n = 1 << 20
	r := &Report{Results: []Result{
		timeResult(OpCopy, "float32", n, 1e-3),
		timeResult(OpAxpby, "float32", n, 2e-3),
		timeResult(OpNorm, "float64", n, 1e-3), // no float64 copy: no fraction
		{Op: OpMatMul, DType: "float32", Shape: []int{1024, 1024}, Elems: 1 << 20, Metric: MetricTime, Seconds: 1e-3},
		{Op: OpAxpby, DType: "float32", Shape: []int{4096}, Elems: 4096, Metric: MetricLatencySync, Seconds: 1e-5},
		{Op: OpAxpby, DType: "float32", Shape: []int{n}, Elems: n, Metric: MetricTime, Error: "out of memory"},
	}}
	r.Annotate()
	cp, ax, nm, mm, lat, bad := r.Results[0], r.Results[1], r.Results[2], r.Results[3], r.Results[4], r.Results[5]
	if cp.Bytes != 8*n || math.Abs(cp.GBps-8*n/1e-3/1e9) > 1e-9 || cp.CopyFraction != 1 {
		t.Errorf("copy annotated as %+v", cp)
	}
	// axpby moves 1.5x the copy's bytes in 2x its time: 75% of the copy's bandwidth.
	if math.Abs(ax.CopyFraction-0.75) > 1e-12 {
		t.Errorf("axpby copy fraction = %v, want 0.75", ax.CopyFraction)
	}
	if nm.CopyFraction != 0 || nm.GBps == 0 {
		t.Errorf("norm without a copy baseline annotated as %+v", nm)
	}
	if math.Abs(mm.TFLOPs-2*1024*1024*1024/1e-3/1e12) > 1e-9 || mm.CopyFraction != 0 {
		t.Errorf("matmul annotated as %+v", mm)
	}
	if lat.Bytes != 0 || lat.GBps != 0 {
		t.Errorf("latency results get no bandwidth: %+v", lat)
	}
	if bad.GBps != 0 {
		t.Errorf("failed results get no bandwidth: %+v", bad)
	}
}

func sampleReport(impl string) *Report {
	return &Report{
		Schema:   Schema,
		Impl:     impl,
		Device:   DeviceDesc{Type: "cuda", Name: "NVIDIA H100 80GB HBM3", Capability: "9.0", SMs: 132, Driver: "580.65.06"},
		Timer:    "test",
		Date:     "2026-01-02T03:04:05Z",
		Env:      map[string]string{"go": "go1.26"},
		Settings: Settings{Repeats: 3, Warmup: 1, BatchSeconds: 3e-3, LatencyCalls: 1000, LatencyElems: 4096, MaxElems: 1 << 28},
	}
}

func TestJSONRoundTrip(t *testing.T) {
	r := sampleReport(ImplGo)
	r.Results = []Result{
		timeResult(OpCopy, "float32", 1<<28, 0.733e-3),
		timeResult(OpPolynomial, "float32", 1<<28, 0.8e-3),
		{Op: OpRowSoftmax, DType: "float64", Shape: []int{4096, 4096}, Elems: 1 << 24, Metric: MetricTime, Error: "boom"},
		{Op: OpAddScalar, DType: "float32", Shape: []int{4096}, Elems: 4096, Metric: MetricLatencyBatch, Seconds: 3e-6, MinSeconds: 2e-6, Repeats: 5, Batch: 1000},
	}
	r.Annotate()
	path := filepath.Join(t.TempDir(), "r.json")
	if err := r.WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	got, err := ReadJSON(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("round trip changed the report:\n got %+v\nwant %+v", got, r)
	}
	// The keys are the documented ones (torch_bench.py writes the same).
	b, _ := os.ReadFile(path)
	for _, key := range []string{`"schema"`, `"impl"`, `"device"`, `"timer"`, `"date"`, `"settings"`, `"results"`, `"op"`, `"dtype"`, `"shape"`, `"elems"`, `"metric"`, `"seconds"`, `"min_seconds"`, `"repeats"`, `"batch"`, `"gb_per_s"`, `"copy_fraction"`, `"error"`, `"batch_seconds"`, `"latency_calls"`} {
		if !bytes.Contains(b, []byte(key)) {
			t.Errorf("JSON has no key %s", key)
		}
	}

	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"schema": "other", "results": []}`), 0o644)
	if _, err := ReadJSON(bad); err == nil || !strings.Contains(err.Error(), "schema") {
		t.Errorf("ReadJSON of another schema: err = %v", err)
	}
	os.WriteFile(bad, []byte(`{`), 0o644)
	if _, err := ReadJSON(bad); err == nil {
		t.Error("ReadJSON of bad JSON succeeded")
	}
	if _, err := ReadJSON(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("ReadJSON of a missing file succeeded")
	}
}

// TestTorchJSONSchema decodes a file written by torch_bench.py (on the CPU,
// tiny sizes) strictly: every key it writes is a field of Report.
func TestTorchJSONSchema(t *testing.T) {
	path := "testdata/torch_cpu_tiny.json"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var r Report
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("%s does not match the Report schema: %v", path, err)
	}
	if r.Schema != Schema || r.Impl != ImplTorch || len(r.Results) == 0 {
		t.Fatalf("unexpected torch report: schema %q impl %q, %d results", r.Schema, r.Impl, len(r.Results))
	}
	// Python's derived fields agree with Annotate's.
	want := map[Key]Result{}
	for _, res := range r.Results {
		want[res.Key()] = res
	}
	r.Annotate()
	for _, res := range r.Results {
		w := want[res.Key()]
		if res.Bytes != w.Bytes || !near(res.GBps, w.GBps) || !near(res.CopyFraction, w.CopyFraction) || !near(res.TFLOPs, w.TFLOPs) {
			t.Errorf("%v: Python derived bytes %d, %v GB/s, copy %v, %v TFLOP/s; Go %d, %v, %v, %v",
				res.Key(), w.Bytes, w.GBps, w.CopyFraction, w.TFLOPs, res.Bytes, res.GBps, res.CopyFraction, res.TFLOPs)
		}
	}
	ops := map[string]bool{}
	for _, res := range r.Results {
		ops[res.Op] = true
	}
	for _, op := range AllOps {
		if !ops[Counterpart(op)] {
			t.Errorf("torch report has no %s", Counterpart(op))
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

// goAndTorch returns reports shaped like the design's H100 numbers.
func goAndTorch() (*Report, *Report) {
	const n = 1 << 28
	g, tr := sampleReport(ImplGo), sampleReport(ImplTorch)
	g.Results = []Result{
		timeResult(OpCopy, "float32", n, 0.75e-3),
		timeResult(OpAddScalar, "float32", n, 0.80e-3),   // 93.8% of copy
		timeResult(OpAxpby, "float32", n, 1.30e-3),       // 86.5% of copy: fails 90%
		timeResult(OpNorm, "float32", n, 0.36e-3),        // faster than 0.371
		timeResult(OpPolynomial, "float32", n, 0.78e-3),  // 8.2x
		timeResult(OpPolyFwdBwd, "float32", n, 1.95e-3),  // 8.8x
		timeResult(OpPolyAutograd, "float32", n, 2.8e-3), // no copy target (info)
		{Op: OpRowSoftmax, DType: "float32", Shape: []int{4096, 4096}, Elems: 1 << 24, Metric: MetricTime, Seconds: 0.080e-3}, // slower: fails
		timeResult(OpCopy, "float32", 1<<24, 0.05e-3),
		{Op: OpMatMul, DType: "float32", Shape: []int{4096, 4096}, Elems: 1 << 24, Metric: MetricTime, Seconds: 4.7e-3},
		{Op: OpAddScalar, DType: "float32", Shape: []int{4096}, Elems: 4096, Metric: MetricLatencySync, Seconds: 8e-6},
		{Op: OpAddScalar, DType: "float32", Shape: []int{4096}, Elems: 4096, Metric: MetricLatencyBatch, Seconds: 2e-6},
		{Op: OpAxpby, DType: "float64", Shape: []int{4096}, Elems: 4096, Metric: MetricTime, Seconds: 3e-6},
	}
	tr.Results = []Result{
		timeResult(OpCopy, "float32", n, 0.733e-3),
		timeResult(OpAddScalar, "float32", n, 0.733e-3),
		timeResult(OpAxpby, "float32", n, 2.54e-3),
		timeResult(OpNorm, "float32", n, 0.371e-3),
		timeResult(OpPolynomial, "float32", n, 6.42e-3),
		timeResult(OpPolyFwdBwd, "float32", n, 17.2e-3),
		{Op: OpRowSoftmax, DType: "float32", Shape: []int{4096, 4096}, Elems: 1 << 24, Metric: MetricTime, Seconds: 0.075e-3},
		timeResult(OpCopy, "float32", 1<<24, 0.05e-3),
		{Op: OpMatMul, DType: "float32", Shape: []int{4096, 4096}, Elems: 1 << 24, Metric: MetricTime, Seconds: 2.83e-3},
		{Op: OpAddScalar, DType: "float32", Shape: []int{4096}, Elems: 4096, Metric: MetricLatencySync, Seconds: 20e-6},
		{Op: OpAddScalar, DType: "float32", Shape: []int{4096}, Elems: 4096, Metric: MetricLatencyBatch, Seconds: 5e-6},
		{Op: OpNorm, DType: "float64", Shape: []int{4096}, Elems: 4096, Metric: MetricTime, Seconds: 3e-6}, // PyTorch only
	}
	return g, tr
}

func findTarget(t *testing.T, c *Comparison, name string) TargetResult {
	t.Helper()
	for _, tr := range c.Targets {
		if tr.Name == name {
			return tr
		}
	}
	t.Fatalf("no target %q in %v", name, c.Targets)
	return TargetResult{}
}

func TestCompare(t *testing.T) {
	g, tr := goAndTorch()
	c := Compare(g, tr)
	if c.TargetNote != "" {
		t.Errorf("TargetNote = %q, want none at 256M", c.TargetNote)
	}
	for _, tc := range []struct {
		name  string
		value float64
		met   bool
	}{
		{"add_scalar >= 90% of copy bandwidth", 0.75 / 0.80, true},
		{"axpby >= 90% of copy bandwidth", 1.5 * 0.75 / 1.30, false},
		{"polynomial >= 90% of copy bandwidth", 0.75 / 0.78, true},
		{"polynomial_fwd_bwd >= 90% of copy bandwidth", 2.5 * 0.75 / 1.95, true},
		{"polynomial forward >= 6x PyTorch eager", 6.42 / 0.78, true},
		{"polynomial fwd+bwd (fused kernels) >= 5x PyTorch autograd", 17.2 / 1.95, true},
		{"polynomial fwd+bwd (Go autograd) >= 5x PyTorch autograd", 17.2 / 2.8, true},
		{"axpby >= 2x PyTorch eager", 2.54 / 1.30, false},
		{"norm >= PyTorch (vector_norm)", 0.371 / 0.36, true},
		{"row_softmax 4096x4096 >= torch.softmax", 0.075 / 0.080, false},
		{"add_scalar latency (call+sync) at 4K <= 1/2 PyTorch", 8.0 / 20, true},
		{"add_scalar latency (batched) at 4K <= 1/2 PyTorch", 2.0 / 5, true},
	} {
		got := findTarget(t, c, tc.name)
		if math.Abs(got.Value-tc.value) > 1e-9 || got.Met != tc.met {
			t.Errorf("%s: value %v met %v, want %v %v", tc.name, got.Value, got.Met, tc.value, tc.met)
		}
	}
	if tg := findTarget(t, c, "polynomial fwd+bwd (Go autograd) >= 5x PyTorch autograd"); tg.Binding {
		t.Error("the autograd variant's target should be for information")
	}
	if tg := findTarget(t, c, "add_scalar latency (batched) at 4K <= 1/2 PyTorch"); !tg.Binding {
		t.Error("the batched latency should be binding")
	}
	if tg := findTarget(t, c, "add_scalar latency (call+sync) at 4K <= 1/2 PyTorch"); tg.Binding {
		t.Error("the call+sync latency should be for information")
	}
	// Issue 14 made the Go-autograd copy fraction binding.
	if tg := findTarget(t, c, "polynomial_fwd_bwd_autograd >= 90% of copy bandwidth"); !near(tg.Value, 2.5*0.75/2.8) || tg.Met || !tg.Binding {
		t.Errorf("autograd copy fraction target: %+v", tg)
	}
	// No 16-bit results: no 16-bit targets.
	if got := c.JudgedDTypes(); !slices.Equal(got, []string{"float32"}) {
		t.Errorf("JudgedDTypes = %v, want float32 alone", got)
	}
	for _, tg := range c.Targets {
		if tg.DType != "float32" {
			t.Errorf("target in %s without results in it: %+v", tg.DType, tg)
		}
	}
	met, total := c.MetCount()
	if total == 0 || met >= total {
		t.Errorf("MetCount = %d of %d", met, total)
	}
	// Rows: the autograd variant is paired with PyTorch's fwd+bwd; PyTorch-only results get a row.
	r := c.Row(Key{OpPolyAutograd, "float32", "268435456", MetricTime})
	if r == nil || r.Torch == nil || math.Abs(r.Speedup-17.2/2.8) > 1e-9 {
		t.Errorf("autograd row = %+v", r)
	}
	if r := c.Row(Key{OpNorm, "float64", "4096", MetricTime}); r == nil || r.Go != nil || r.Torch == nil || !math.IsNaN(r.Speedup) {
		t.Errorf("PyTorch-only row = %+v", r)
	}
	if r := c.Row(Key{OpAxpby, "float64", "4096", MetricTime}); r == nil || r.Torch != nil || !math.IsNaN(r.Speedup) {
		t.Errorf("Go-only row = %+v", r)
	}

	// JSON of the comparison: NaN values become null and come back as NaN.
	path := filepath.Join(t.TempDir(), "cmp.json")
	if err := c.WriteJSON(path); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	var back struct {
		Met, Total int
		Targets    []TargetResult
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Met != met || back.Total != total || len(back.Targets) != len(c.Targets) {
		t.Errorf("comparison JSON: met %d total %d, %d targets", back.Met, back.Total, len(back.Targets))
	}
	for i, tg := range back.Targets {
		want := c.Targets[i]
		if tg.Name != want.Name || tg.Met != want.Met || (tg.Value != want.Value && !(math.IsNaN(tg.Value) && math.IsNaN(want.Value))) {
			t.Errorf("target %d after JSON: %+v, want %+v", i, tg, want)
		}
	}
}

func TestCompareSmallerSize(t *testing.T) {
	g, tr := sampleReport(ImplGo), sampleReport(ImplTorch)
	for _, n := range []int{1 << 12, 1 << 20} {
		g.Results = append(g.Results, timeResult(OpCopy, "float32", n, 1e-3), timeResult(OpAddScalar, "float32", n, 1e-3))
		tr.Results = append(tr.Results, timeResult(OpCopy, "float32", n, 1e-3), timeResult(OpAddScalar, "float32", n, 2e-3))
	}
	c := Compare(g, tr)
	if !strings.Contains(c.TargetNote, "1M") {
		t.Errorf("TargetNote = %q, want it to name 1M", c.TargetNote)
	}
	tg := findTarget(t, c, "add_scalar >= 90% of copy bandwidth")
	if tg.Shape[0] != 1<<20 || tg.Value != 1 || !tg.Met {
		t.Errorf("add_scalar target at the largest size: %+v", tg)
	}
	if tg := findTarget(t, c, "axpby >= 2x PyTorch eager"); !math.IsNaN(tg.Value) || tg.Met || !strings.Contains(tg.Note, "not measured") {
		t.Errorf("unmeasured target: %+v", tg)
	}
}

// halfReports returns goAndTorch's reports with issue 14's 16-bit results
// added: bfloat16 at 256M, float16 up to 64M only.
func halfReports() (*Report, *Report) {
	const n, m = 1 << 28, 1 << 26
	g, tr := goAndTorch()
	g.Results = append(g.Results,
		timeResult(OpCopy, "bfloat16", n, 0.375e-3),
		timeResult(OpAddScalar, "bfloat16", n, 0.40e-3),    // 93.75% of copy, 1.00x
		timeResult(OpAxpby, "bfloat16", n, 0.60e-3),        // 93.75%, 1.03x
		timeResult(OpNorm, "bfloat16", n, 0.19e-3),         // slower than 0.18: fails
		timeResult(OpPolynomial, "bfloat16", n, 0.43e-3),   // 87.2% of copy: fails
		timeResult(OpPolyFwdBwd, "bfloat16", n, 0.98e-3),   // 95.7%
		timeResult(OpPolyAutograd, "bfloat16", n, 1.20e-3), // 78.1%: info
		Result{Op: OpRowSoftmax, DType: "bfloat16", Shape: []int{4096, 4096}, Elems: 1 << 24, Metric: MetricTime, Seconds: 0.040e-3},
		timeResult(OpCopy, "float16", m, 0.094e-3),
		timeResult(OpAddScalar, "float16", m, 0.10e-3), // 94%, 0.95x: fails
		timeResult(OpNorm, "float16", m, 0.05e-3),      // 0.90x: info
		Result{Op: OpRowSoftmax, DType: "float16", Shape: []int{4096, 4096}, Elems: 1 << 24, Metric: MetricTime, Seconds: 0.045e-3},
	)
	tr.Results = append(tr.Results,
		timeResult(OpCopy, "bfloat16", n, 0.37e-3),
		timeResult(OpAddScalar, "bfloat16", n, 0.40e-3),
		timeResult(OpAxpby, "bfloat16", n, 0.62e-3),
		timeResult(OpNorm, "bfloat16", n, 0.18e-3),
		timeResult(OpPolynomial, "bfloat16", n, 3.2e-3),
		timeResult(OpPolyFwdBwd, "bfloat16", n, 8.6e-3),
		Result{Op: OpRowSoftmax, DType: "bfloat16", Shape: []int{4096, 4096}, Elems: 1 << 24, Metric: MetricTime, Seconds: 0.042e-3},
		timeResult(OpCopy, "float16", m, 0.094e-3),
		timeResult(OpAddScalar, "float16", m, 0.095e-3),
		timeResult(OpNorm, "float16", m, 0.045e-3),
		Result{Op: OpRowSoftmax, DType: "float16", Shape: []int{4096, 4096}, Elems: 1 << 24, Metric: MetricTime, Seconds: 0.040e-3},
	)
	return g, tr
}

func TestCompareHalf(t *testing.T) {
	g, tr := halfReports()
	c := Compare(g, tr)
	if got := c.JudgedDTypes(); !slices.Equal(got, []string{"float32", "float16", "bfloat16"}) {
		t.Errorf("JudgedDTypes = %v", got)
	}
	for _, tc := range []struct {
		name    string
		value   float64 // NaN: not measured
		met     bool
		binding bool
		elems   int
	}{
		{"add_scalar bfloat16 >= 90% of copy bandwidth", 0.375 / 0.40, true, true, 1 << 28},
		{"add_scalar bfloat16 >= PyTorch", 1, true, true, 1 << 28},
		{"axpby bfloat16 >= 90% of copy bandwidth", 1.5 * 0.375 / 0.60, true, true, 1 << 28},
		{"axpby bfloat16 >= PyTorch", 0.62 / 0.60, true, true, 1 << 28},
		{"polynomial bfloat16 >= 90% of copy bandwidth", 0.375 / 0.43, false, true, 1 << 28},
		{"polynomial bfloat16 >= PyTorch", 3.2 / 0.43, true, true, 1 << 28},
		{"polynomial_fwd_bwd bfloat16 >= 90% of copy bandwidth", 2.5 * 0.375 / 0.98, true, true, 1 << 28},
		{"polynomial_fwd_bwd bfloat16 >= PyTorch", 8.6 / 0.98, true, true, 1 << 28},
		{"polynomial_fwd_bwd_autograd bfloat16 >= 90% of copy bandwidth", 2.5 * 0.375 / 1.2, false, false, 1 << 28},
		{"polynomial_fwd_bwd_autograd bfloat16 >= PyTorch", 8.6 / 1.2, true, false, 1 << 28},
		{"norm bfloat16 >= PyTorch (vector_norm)", 0.18 / 0.19, false, true, 1 << 28},
		{"row_softmax bfloat16 4096x4096 >= torch.softmax", 0.042 / 0.040, true, true, 1 << 24},
		// float16 was measured up to 64M: judged there.
		{"add_scalar float16 >= 90% of copy bandwidth", 0.094 / 0.10, true, true, 1 << 26},
		{"add_scalar float16 >= PyTorch", 0.095 / 0.10, false, true, 1 << 26},
		{"axpby float16 >= 90% of copy bandwidth", math.NaN(), false, true, 1 << 26},
		{"norm float16 >= PyTorch (vector_norm)", 0.045 / 0.05, false, false, 1 << 26},
		{"row_softmax float16 4096x4096 >= torch.softmax", 0.040 / 0.045, false, false, 1 << 24},
	} {
		got := findTarget(t, c, tc.name)
		if math.IsNaN(tc.value) != math.IsNaN(got.Value) || (!math.IsNaN(tc.value) && !near(got.Value, tc.value)) ||
			got.Met != tc.met || got.Binding != tc.binding || numel(got.Shape) != tc.elems {
			t.Errorf("%s: value %v met %v binding %v shape %v, want %v %v %v %d", tc.name, got.Value, got.Met, got.Binding, got.Shape, tc.value, tc.met, tc.binding, tc.elems)
		}
	}
	if tg := findTarget(t, c, "axpby float16 >= PyTorch"); !strings.Contains(tg.Note, "not measured in Go") {
		t.Errorf("unmeasured float16 target: %+v", tg)
	}
	if !strings.Contains(c.TargetNote, "float16 elementwise targets are judged at 64M") || strings.Contains(c.TargetNote, "bfloat16") {
		t.Errorf("TargetNote = %q, want the float16 size alone", c.TargetNote)
	}
	// The float32 targets are those of the float32-only comparison.
	g32, tr32 := goAndTorch()
	c32 := Compare(g32, tr32)
	if len(c.Targets) <= len(c32.Targets) {
		t.Fatalf("%d targets with 16-bit results, %d without", len(c.Targets), len(c32.Targets))
	}
	for i, tg := range c32.Targets {
		if got := c.Targets[i]; got.Name != tg.Name || got.Met != tg.Met || got.Binding != tg.Binding {
			t.Errorf("target %d: %+v, want %+v", i, got, tg)
		}
	}
	met, total := c.MetCount()
	met32, total32 := c32.MetCount()
	// Binding 16-bit targets: 8 elementwise, Norm and RowSoftmax in bfloat16; 8 elementwise in float16.
	if total-total32 != 18 || met-met32 != 9 {
		t.Errorf("16-bit targets: %d of %d met, want 9 of 18", met-met32, total-total32)
	}

	var b bytes.Buffer
	c.WriteMarkdown(&b)
	md := b.String()
	for _, want := range []string{
		"## Targets (float32, float16, bfloat16)",
		"Note: the float16 elementwise targets are judged at 64M elements: 256M were not measured.",
		"| add_scalar bfloat16 >= 90% of copy bandwidth | 256M | 0.4000 ms | 0.4000 ms | 93.8% | >= 90% of copy | yes |",
		"| polynomial bfloat16 >= 90% of copy bandwidth | 256M | 0.4300 ms | 3.200 ms | 87.2% | >= 90% of copy | no |",
		"| norm bfloat16 >= PyTorch (vector_norm) | 256M | 0.1900 ms | 0.1800 ms | 0.95x | >= 1x | no |",
		"| row_softmax bfloat16 4096x4096 >= torch.softmax | 4096x4096 | 0.0400 ms | 0.0420 ms | 1.05x | >= 1x | yes |",
		"| norm float16 >= PyTorch (vector_norm) | 64M | 0.0500 ms | 0.0450 ms | 0.90x | >= 1x | no (info) |",
		"| axpby float16 >= PyTorch (not measured in Go) | 64M | — | — | — | >= 1x | n/a |",
		"## Elementwise ops and Norm, float16",
		"## Elementwise ops and Norm, bfloat16",
		"| copy | 256M | 0.3750 | 0.3700 | 0.99x | 2863 | 100.0% | 2902 | 100.0% | — |",
		"| polynomial | 256M | 0.4300 | 3.200 | 7.44x | 2497 | 87.2% | 336 | 11.6% | >= 90% copy: no; >= 1x: yes |",
		"| bfloat16 | 4096x4096 | 0.0400 | 0.0420 | 1.05x |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("comparison markdown lacks %q:\n%s", want, md)
		}
	}
	// Sections in DTypeNames order.
	if i, j, k := strings.Index(md, "Norm, float32"), strings.Index(md, "Norm, float16"), strings.Index(md, "Norm, bfloat16"); !(i < j && j < k) {
		t.Errorf("sections out of order: float32 at %d, float16 at %d, bfloat16 at %d", i, j, k)
	}
	checkTables(t, md)
}

// checkTables checks that every markdown table row has as many cells as
// its header.
func checkTables(t *testing.T, md string) {
	t.Helper()
	cols := 0
	for i, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			cols = 0
			continue
		}
		n := strings.Count(line, "|") - 1
		if cols == 0 {
			cols = n
		} else if n != cols {
			t.Errorf("line %d has %d cells, its table %d: %s", i+1, n, cols, line)
		}
	}
}

func TestReportMarkdown(t *testing.T) {
	g, _ := goAndTorch()
	g.Annotate()
	var b bytes.Buffer
	g.WriteMarkdown(&b)
	md := b.String()
	for _, want := range []string{
		"# ops benchmark (go) on cuda:0, NVIDIA H100 80GB HBM3 (compute capability 9.0, 132 SMs), driver 580.65.06",
		"## Elementwise ops and Norm, float32",
		"| copy | 256M | 0.7500 | 2863 | 100.0% |",
		"| polynomial | 256M | 0.7800 | 2753 | 96.2% |",
		"## RowSoftmax",
		"| float32 | 4096x4096 | 0.0800 |",
		"## MatMul",
		"| float32 | 4096 | 4.700 | 29.2 |",
		"## Per-call latency",
		"| add_scalar | float32 | 4096 | 8.00 | 2.00 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	checkTables(t, md)
}

func TestCompareMarkdown(t *testing.T) {
	g, tr := goAndTorch()
	c := Compare(g, tr)
	var b bytes.Buffer
	c.WriteMarkdown(&b)
	md := b.String()
	met, total := c.MetCount()
	for _, want := range []string{
		"# Go ops vs PyTorch on cuda:0, NVIDIA H100 80GB HBM3",
		fmt.Sprintf("targets met: %d of %d", met, total),
		"| polynomial forward >= 6x PyTorch eager | 256M | 0.7800 ms | 6.420 ms | 8.23x | >= 6x | yes |",
		"| axpby >= 2x PyTorch eager | 256M | 1.300 ms | 2.540 ms | 1.95x | >= 2x | no |",
		"| add_scalar >= 90% of copy bandwidth | 256M | 0.8000 ms | 0.7330 ms | 93.8% | >= 90% of copy | yes |",
		"| polynomial fwd+bwd (Go autograd) >= 5x PyTorch autograd | 256M | 2.800 ms | 17.20 ms | 6.14x | >= 5x | yes (info) |",
		"| polynomial | 256M | 0.7800 | 6.420 | 8.23x | 2753 | 96.2% | 334 | 11.4% | >= 90% copy: yes; >= 6x: yes |",
		"| float32 | 4096x4096 | 0.0800 | 0.0750 | 0.94x |",
		"| float32 | 4096 | 4.700 | 2.830 | 29.2 | 48.6 | 60.2% |",
		"| add_scalar | float32 | 4096 | batched | 2.00 | 5.00 | 0.40x | <= 0.5x: yes |",
		"| add_scalar | float32 | 4096 | call+sync | 8.00 | 20.00 | 0.40x | — |",
		"| norm | 4K | — | 0.0030 | — |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("comparison markdown lacks %q:\n%s", want, md)
		}
	}
	checkTables(t, md)
}

func TestWritePNG(t *testing.T) {
	g, tr := goAndTorch()
	for _, n := range []int{1 << 12, 1 << 16, 1 << 20} {
		g.Results = append(g.Results, timeResult(OpCopy, "float32", n, float64(n)*1e-12), timeResult(OpAxpby, "float32", n, float64(n)*2e-12))
		tr.Results = append(tr.Results, timeResult(OpCopy, "float32", n, float64(n)*1e-12), timeResult(OpAxpby, "float32", n, float64(n)*3e-12))
	}
	c := Compare(g, tr)
	for name, panels := range map[string][]Panel{"report": ReportPanels(g), "compare": c.Panels()} {
		if len(panels) == 0 {
			t.Fatalf("%s: no panels", name)
		}
		var b bytes.Buffer
		if err := WritePNG(&b, panels); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		img, err := png.Decode(&b)
		if err != nil {
			t.Fatalf("%s: not a PNG: %v", name, err)
		}
		if sz := img.Bounds().Size(); sz.X < 500 || sz.Y < 300 {
			t.Errorf("%s: image is %v", name, sz)
		}
	}
	if err := WritePNG(&bytes.Buffer{}, nil); err == nil {
		t.Error("WritePNG of no panels succeeded")
	}
	path := filepath.Join(t.TempDir(), "p.png")
	if err := WritePNGFile(path, c.Panels()); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("WritePNGFile wrote no PNG (err %v)", err)
	}
}

func TestSizeTicks(t *testing.T) {
	var labels []string
	for _, tk := range sizeTicks(4096, 1<<28) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if want := []string{"4K", "16K", "64K", "256K", "1M", "4M", "16M", "64M", "256M"}; !slices.Equal(labels, want) {
		t.Errorf("labels = %v, want %v", labels, want)
	}
}

// TestRunCPU runs the whole benchmark on the CPU at tiny sizes (a smoke
// test: no timing is checked).
func TestRunCPU(t *testing.T) {
	var log bytes.Buffer
	rep, err := Run(Config{
		Device:        ops.CPU,
		DTypes:        []ops.DType{ops.Float32, ops.Float64, ops.Float16, ops.BFloat16},
		Sizes:         []int{4096, 16384},
		SoftmaxShapes: [][2]int{{32, 64}, {64, 64}, {1 << 10, 1 << 10}}, // the last is over MaxElems
		MatMulSizes:   []int{32},
		MaxElems:      1 << 16,
		Repeats:       2,
		Warmup:        1,
		MinBatch:      200 * time.Microsecond,
		LatencyCalls:  5,
		Log:           &log,
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Schema != Schema || rep.Impl != ImplGo || rep.Device.Type != "cpu" {
		t.Errorf("report header: %+v", rep)
	}
	seen := map[Key]bool{}
	for _, r := range rep.Results {
		if r.Error != "" {
			t.Errorf("%v: %s", r.Key(), r.Error)
			continue
		}
		if !(r.Seconds > 0) || r.MinSeconds > r.Seconds || r.Repeats == 0 || r.Batch == 0 {
			t.Errorf("%v: bad timing %+v", r.Key(), r)
		}
		if seen[r.Key()] {
			t.Errorf("%v measured twice", r.Key())
		}
		seen[r.Key()] = true
		if r.Metric == MetricTime && r.Op != OpMatMul && r.CopyFraction == 0 {
			t.Errorf("%v has no copy fraction", r.Key())
		}
		if r.Op == OpCopy && r.Metric == MetricTime && r.CopyFraction != 1 {
			t.Errorf("copy's copy fraction is %v", r.CopyFraction)
		}
	}
	if got := rep.DTypes(); !slices.Equal(got, DTypeNames) {
		t.Errorf("DTypes = %v, want %v", got, DTypeNames)
	}
	for _, dt := range DTypeNames {
		for _, op := range ElementwiseOps {
			for _, n := range []string{"4096", "16384"} {
				if !seen[Key{op, dt, n, MetricTime}] {
					t.Errorf("missing %s %s %s", op, dt, n)
				}
			}
		}
		for _, k := range []Key{
			{OpCopy, dt, "2048", MetricTime}, // the copy baseline of the 32x64 softmax
			{OpRowSoftmax, dt, "32x64", MetricTime},
			{OpRowSoftmax, dt, "64x64", MetricTime},
			{OpMatMul, dt, "32x32", MetricTime},
			{OpAddScalar, dt, "4096", MetricLatencySync},
			{OpPolyAutograd, dt, "4096", MetricLatencyBatch},
			{OpMatMul, dt, "64x64", MetricLatencySync},
		} {
			if !seen[k] {
				t.Errorf("missing %v", k)
			}
		}
		if seen[Key{OpRowSoftmax, dt, "1024x1024", MetricTime}] {
			t.Error("a softmax shape over MaxElems was measured")
		}
	}
	if !strings.Contains(log.String(), "polynomial_fwd_bwd_autograd") {
		t.Errorf("no progress lines: %q", log.String())
	}

	// The rest of the pipeline works on a real report.
	var md bytes.Buffer
	rep.WriteMarkdown(&md)
	checkTables(t, md.String())
	if err := WritePNG(&bytes.Buffer{}, ReportPanels(rep)); err != nil {
		t.Error(err)
	}
	other := *rep
	other.Impl = ImplTorch
	c := Compare(rep, &other)
	md.Reset()
	c.WriteMarkdown(&md)
	checkTables(t, md.String())
	if !strings.Contains(md.String(), "## Targets (float32, float16, bfloat16)") {
		t.Errorf("the comparison does not judge the 16-bit targets:\n%s", md.String())
	}
	for name, shape := range map[string]string{
		"axpby bfloat16 >= 90% of copy bandwidth":     "16384", // the largest size measured
		"polynomial_fwd_bwd float16 >= PyTorch":       "16384",
		"row_softmax bfloat16 64x64 >= torch.softmax": "64x64",
	} {
		if tg := findTarget(t, c, name); math.IsNaN(tg.Value) || ShapeString(tg.Shape) != shape {
			t.Errorf("%s: %+v", name, tg)
		}
	}
}

func TestRunSubset(t *testing.T) {
	rep, err := Run(Config{Device: ops.CPU, DTypes: []ops.DType{ops.Float32}, Ops: []string{OpNorm}, Sizes: []int{4096},
		Repeats: 1, MinBatch: 100 * time.Microsecond, LatencyElems: -1})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rep.Results {
		got = append(got, r.Op+"/"+r.Metric)
	}
	if want := []string{"copy/time", "norm/time"}; !slices.Equal(got, want) {
		t.Errorf("results %v, want %v", got, want)
	}
}

// fixedClock says every batch took d and counts its batches.
type fixedClock struct {
	d              time.Duration
	starts, stops  int
	startedTwice   bool
	stoppedUnstart bool
}

func (c *fixedClock) Start() error {
	if c.starts > c.stops {
		c.startedTwice = true
	}
	c.starts++
	return nil
}

func (c *fixedClock) Stop() (time.Duration, error) {
	if c.stops >= c.starts {
		c.stoppedUnstart = true
	}
	c.stops++
	return c.d, nil
}

func (c *fixedClock) String() string { return "fixed clock" }

// TestRunClock checks that the throughput samples come from Config.Clock
// (and only they: latencies keep the host clock), and that the report names
// the clock.
func TestRunClock(t *testing.T) {
	clk := &fixedClock{d: 8 * time.Millisecond}
	rep, err := Run(Config{
		Device:       ops.CPU,
		DTypes:       []ops.DType{ops.Float32},
		Ops:          []string{OpAddScalar},
		Sizes:        []int{4096},
		Repeats:      3,
		Warmup:       1,
		MinBatch:     200 * time.Microsecond,
		LatencyCalls: 5,
		Clock:        clk,
	})
	if err != nil {
		t.Fatal(err)
	}
	if clk.startedTwice || clk.stoppedUnstart || clk.starts != clk.stops {
		t.Errorf("clock used out of order: %+v", clk)
	}
	if want := 2 * 3; clk.stops != want { // copy and add_scalar, 3 samples each
		t.Errorf("clock timed %d batches, want %d", clk.stops, want)
	}
	if !strings.Contains(rep.Timer, "fixed clock") {
		t.Errorf("report's timer %q does not name the clock", rep.Timer)
	}
	for _, r := range rep.Results {
		if r.Error != "" {
			t.Fatalf("%v: %s", r.Key(), r.Error)
		}
		want := clk.d.Seconds() / float64(r.Batch)
		switch r.Metric {
		case MetricTime:
			if math.Abs(r.Seconds-want) > 1e-12 {
				t.Errorf("%v: %v s per call, want the clock's %v / batch %d = %v", r.Key(), r.Seconds, clk.d, r.Batch, want)
			}
		case MetricLatencyBatch, MetricLatencySync:
			if r.Seconds >= 1e-3 {
				t.Errorf("%v: %v s per call: the latency used the fixed clock", r.Key(), r.Seconds)
			}
		}
	}
}
