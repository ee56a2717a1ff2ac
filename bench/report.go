package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

// Schema identifies the JSON format of a Report; torch_bench.py writes the
// same.
const Schema = "rules_cuda_go.bench/v1"

// Implementations: Report.Impl.
const (
	ImplGo    = "go"
	ImplTorch = "torch"
)

// Metrics: what Result.Seconds is.
const (
	// MetricTime is the time per call in batches of calls (the throughput
	// measurement); bandwidth and FLOP/s derive from it.
	MetricTime = "time"
	// MetricLatencySync is the median host time of one call followed by a
	// synchronization.
	MetricLatencySync = "latency_sync"
	// MetricLatencyBatch is the host time of many calls issued back to
	// back and one synchronization, divided by the number of calls.
	MetricLatencyBatch = "latency_batch"
)

// Report is the result of one benchmark run, of Go's ops or of PyTorch.
type Report struct {
	Schema   string            `json:"schema"`
	Impl     string            `json:"impl"` // ImplGo or ImplTorch
	Device   DeviceDesc        `json:"device"`
	Timer    string            `json:"timer"` // how times were taken, in words
	Date     string            `json:"date"`  // RFC 3339, UTC
	Env      map[string]string `json:"env,omitempty"`
	Settings Settings          `json:"settings"`
	Results  []Result          `json:"results"`
}

// DeviceDesc describes the device a Report was measured on.
type DeviceDesc struct {
	Type       string `json:"type"` // "cpu" or "cuda"
	Index      int    `json:"index"`
	Name       string `json:"name,omitempty"`       // e.g. "NVIDIA H100 80GB HBM3"
	Capability string `json:"capability,omitempty"` // e.g. "9.0"
	SMs        int    `json:"sms,omitempty"`
	Driver     string `json:"driver,omitempty"` // NVIDIA driver version, where known
}

// Settings are the measurement parameters of a run.
type Settings struct {
	Repeats      int     `json:"repeats"`
	Warmup       int     `json:"warmup"`
	BatchSeconds float64 `json:"batch_seconds"` // minimum duration of a timed batch
	LatencyCalls int     `json:"latency_calls"`
	LatencyElems int     `json:"latency_elems"`
	MaxElems     int64   `json:"max_elems"`
}

// Result is one measurement: an op on one dtype and shape.
type Result struct {
	Op     string `json:"op"`    // one of the Op* constants
	DType  string `json:"dtype"` // "float32", "float64", "float16" or "bfloat16"
	Shape  []int  `json:"shape"` // [n] for elementwise ops, [B, D] for RowSoftmax, [n, n] for MatMul
	Elems  int64  `json:"elems"` // elements of the (first) input
	Metric string `json:"metric"`

	Seconds    float64 `json:"seconds"`     // median time per call
	MinSeconds float64 `json:"min_seconds"` // fastest sample, per call
	Repeats    int     `json:"repeats"`     // samples taken
	Batch      int     `json:"batch"`       // calls per sample

	// Derived by Annotate (MetricTime only).
	Bytes        int64   `json:"bytes,omitempty"`         // Bytes(op, ...)
	Flops        float64 `json:"flops,omitempty"`         // Flops(op, ...)
	GBps         float64 `json:"gb_per_s,omitempty"`      // Bytes / Seconds / 1e9
	TFLOPs       float64 `json:"tflop_per_s,omitempty"`   // Flops / Seconds / 1e12
	CopyFraction float64 `json:"copy_fraction,omitempty"` // GBps / GBps of the copy of Elems elements

	Error string `json:"error,omitempty"` // why there is no time (e.g. out of memory)
}

// Key identifies what a Result measured, across implementations.
type Key struct {
	Op, DType, Shape, Metric string
}

// Key returns r's Key.
func (r *Result) Key() Key {
	return Key{Op: r.Op, DType: r.DType, Shape: ShapeString(r.Shape), Metric: r.Metric}
}

// ShapeString formats a shape as "4096x4096" ("" for no dimensions).
func ShapeString(shape []int) string {
	s := ""
	for i, d := range shape {
		if i > 0 {
			s += "x"
		}
		s += fmt.Sprint(d)
	}
	return s
}

// DTypeNames are the dtypes the benchmarks know, in report order.
var DTypeNames = []string{"float32", "float64", "float16", "bfloat16"}

// ElemSize returns the bytes per element of a dtype name (0 if unknown).
func ElemSize(dtype string) int {
	switch dtype {
	case "float32":
		return 4
	case "float64":
		return 8
	case "float16", "bfloat16":
		return 2
	}
	return 0
}

// compareDTypes orders dtype names as DTypeNames, unknown ones last by name.
func compareDTypes(a, b string) int {
	ia, ib := slices.Index(DTypeNames, a), slices.Index(DTypeNames, b)
	if ia < 0 {
		ia = len(DTypeNames)
	}
	if ib < 0 {
		ib = len(DTypeNames)
	}
	if ia != ib {
		return ia - ib
	}
	return strings.Compare(a, b)
}

// Annotate fills in the derived fields of every MetricTime result: Bytes,
// Flops, GBps, TFLOPs and, where the report has a copy of the same number
// of elements and dtype, CopyFraction. It overwrites what was there, so
// reports from any source get the same formulas.
func (r *Report) Annotate() {
	copyBW := map[[2]any]float64{}
	for i := range r.Results {
		res := &r.Results[i]
		res.Bytes, res.Flops, res.GBps, res.TFLOPs, res.CopyFraction = 0, 0, 0, 0, 0
		if res.Metric != MetricTime || res.Error != "" || res.Seconds <= 0 {
			continue
		}
		res.Bytes = Bytes(res.Op, ElemSize(res.DType), res.Shape)
		res.Flops = Flops(res.Op, res.Shape)
		if res.Bytes > 0 {
			res.GBps = float64(res.Bytes) / res.Seconds / 1e9
		}
		if res.Flops > 0 {
			res.TFLOPs = res.Flops / res.Seconds / 1e12
		}
		if res.Op == OpCopy {
			copyBW[[2]any{res.DType, res.Elems}] = res.GBps
		}
	}
	for i := range r.Results {
		res := &r.Results[i]
		if res.GBps == 0 || !HasCopyBaseline(res.Op) {
			continue
		}
		if bw := copyBW[[2]any{res.DType, res.Elems}]; bw > 0 {
			res.CopyFraction = res.GBps / bw
		}
	}
}

// Find returns the result with key k, or nil.
func (r *Report) Find(k Key) *Result {
	for i := range r.Results {
		if r.Results[i].Key() == k {
			return &r.Results[i]
		}
	}
	return nil
}

// DTypes returns the dtypes of r's results in DTypeNames order (float32
// first).
func (r *Report) DTypes() []string {
	var ds []string
	for _, res := range r.Results {
		if !slices.Contains(ds, res.DType) {
			ds = append(ds, res.DType)
		}
	}
	slices.SortFunc(ds, compareDTypes)
	return ds
}

// WriteJSON writes r, indented, to the file path.
func (r *Report) WriteJSON(path string) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// ReadJSON reads a Report written by WriteJSON or torch_bench.py.
func ReadJSON(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if r.Schema != Schema {
		return nil, fmt.Errorf("%s: schema is %q, expected %q", path, r.Schema, Schema)
	}
	for i := range r.Results {
		res := &r.Results[i]
		if res.Elems == 0 {
			res.Elems = int64(numel(res.Shape))
		}
	}
	return &r, nil
}

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}
