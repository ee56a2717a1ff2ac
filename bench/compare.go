package bench

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
)

// TargetElems is the size at which the elementwise targets are judged
// (2^28 elements, the size of the design's PyTorch reference numbers).
const TargetElems = 1 << 28

// TargetDType is the dtype the design's targets are judged in.
const TargetDType = "float32"

// HalfDTypes are the 16-bit dtypes of issue 14's targets, judged when the
// Go report has results in them: every elementwise op at >= 90% of the
// copy's bandwidth and at least as fast as PyTorch in the same dtype, Norm
// and RowSoftmax at least as fast as PyTorch in bfloat16 (in float16 for
// information).
var HalfDTypes = []string{"float16", "bfloat16"}

// halfElementwiseOps are the elementwise ops with binding half-precision
// targets (the Go-autograd variant of the polynomial is for information).
var halfElementwiseOps = []string{OpAddScalar, OpAxpby, OpPolynomial, OpPolyFwdBwd}

// Kinds of target: what TargetResult.Value is.
const (
	// KindCopyFraction: the op's bandwidth over the copy's, both Go, same
	// run, same elements; met if >= Threshold.
	KindCopyFraction = "copy_fraction"
	// KindSpeedup: PyTorch's time over Go's; met if >= Threshold.
	KindSpeedup = "speedup"
	// KindLatencyRatio: Go's latency over PyTorch's; met if <= Threshold.
	KindLatencyRatio = "latency_ratio"
)

// TargetResult is one target of the design, judged on one measurement.
type TargetResult struct {
	Name      string  `json:"name"` // e.g. "polynomial >= 6x PyTorch eager"
	Op        string  `json:"op"`
	DType     string  `json:"dtype"`
	Shape     []int   `json:"shape"`
	Metric    string  `json:"metric"`
	Kind      string  `json:"kind"`
	Threshold float64 `json:"threshold"`
	Value     float64 `json:"value"`   // NaN (null in JSON) if not measured
	Met       bool    `json:"met"`     // false if not measured
	Binding   bool    `json:"binding"` // false: reported for information, not a target of the design
	Note      string  `json:"note,omitempty"`
}

// Row pairs the Go and PyTorch results of one measurement.
type Row struct {
	Key
	Shape   []int
	Elems   int64
	Go      *Result // nil if not measured
	Torch   *Result // nil if not measured
	Speedup float64 // Torch.Seconds / Go.Seconds; NaN if either is missing
}

// Comparison is the side-by-side view of a Go report and a PyTorch report.
type Comparison struct {
	Go, Torch *Report
	Rows      []Row
	Targets   []TargetResult
	// TargetNote says where the elementwise targets were judged when Go
	// did not measure TargetElems elements ("" otherwise).
	TargetNote string
}

// Counterpart returns the PyTorch op compared with Go's op (the autograd
// variant of the polynomial's forward and backward is compared with
// PyTorch's only variant, which is autograd).
func Counterpart(op string) string {
	if op == OpPolyAutograd {
		return OpPolyFwdBwd
	}
	return op
}

// Compare annotates both reports (so both use this package's formulas)
// and pairs their results: one Row per Go result (and per PyTorch result
// that has no Go counterpart), in the Go report's order, and the design's
// targets judged on them.
func Compare(goRep, torchRep *Report) *Comparison {
	goRep.Annotate()
	torchRep.Annotate()
	c := &Comparison{Go: goRep, Torch: torchRep}
	used := map[Key]bool{}
	for i := range goRep.Results {
		g := &goRep.Results[i]
		k := g.Key()
		tk := k
		tk.Op = Counterpart(k.Op)
		t := torchRep.Find(tk)
		if t != nil {
			used[tk] = true
		}
		c.Rows = append(c.Rows, newRow(k, g.Shape, g.Elems, g, t))
	}
	for i := range torchRep.Results {
		t := &torchRep.Results[i]
		if k := t.Key(); !used[k] && goRep.Find(k) == nil {
			c.Rows = append(c.Rows, newRow(k, t.Shape, t.Elems, nil, t))
		}
	}
	c.Targets = c.judge()
	return c
}

func newRow(k Key, shape []int, elems int64, g, t *Result) Row {
	r := Row{Key: k, Shape: shape, Elems: elems, Go: ok(g), Torch: ok(t), Speedup: math.NaN()}
	if r.Go != nil && r.Torch != nil {
		r.Speedup = r.Torch.Seconds / r.Go.Seconds
	}
	return r
}

// ok returns r if it holds a time, else nil.
func ok(r *Result) *Result {
	if r == nil || r.Error != "" || r.Seconds <= 0 {
		return nil
	}
	return r
}

// Row returns the row of the Go op (or PyTorch-only op) with key k, or nil.
func (c *Comparison) Row(k Key) *Row {
	for i := range c.Rows {
		if c.Rows[i].Key == k {
			return &c.Rows[i]
		}
	}
	return nil
}

// targetSize returns the elementwise size the targets of dtype dt are
// judged at: TargetElems if Go measured it in dt, else the largest size Go
// measured AddScalar at (with a note saying so).
func (c *Comparison) targetSize(dt string) (int64, string) {
	var sizes []int64
	for _, r := range c.Rows {
		if r.Op == OpAddScalar && r.DType == dt && r.Metric == MetricTime && r.Go != nil {
			sizes = append(sizes, r.Elems)
		}
	}
	if len(sizes) == 0 || slices.Contains(sizes, TargetElems) {
		return TargetElems, ""
	}
	n := slices.Max(sizes)
	what := "the elementwise targets"
	if dt != TargetDType {
		what = "the " + dt + " elementwise targets"
	}
	return n, fmt.Sprintf("%s are judged at %s elements: %s were not measured", what, HumanCount(n), HumanCount(TargetElems))
}

// JudgedDTypes returns the dtypes whose targets Compare judges: TargetDType
// and those of HalfDTypes that the Go report has results in.
func (c *Comparison) JudgedDTypes() []string {
	ds := []string{TargetDType}
	for _, dt := range HalfDTypes {
		if slices.Contains(c.Go.DTypes(), dt) {
			ds = append(ds, dt)
		}
	}
	return ds
}

// judge evaluates the design's targets, then issue 14's half-precision
// ones.
func (c *Comparison) judge() []TargetResult {
	n, note := c.targetSize(TargetDType)
	c.TargetNote = note
	elem := func(op, kind string, thr float64, binding bool, name string) TargetResult {
		return c.judgeOne(Key{Op: op, DType: TargetDType, Shape: fmt.Sprint(n), Metric: MetricTime}, []int{int(n)}, kind, thr, binding, name, "")
	}
	var ts []TargetResult
	for _, op := range []string{OpAddScalar, OpAxpby, OpPolynomial, OpPolyFwdBwd, OpPolyAutograd} {
		ts = append(ts, elem(op, KindCopyFraction, 0.90, true, op+" >= 90% of copy bandwidth"))
	}
	ts = append(ts,
		elem(OpPolynomial, KindSpeedup, 6, true, "polynomial forward >= 6x PyTorch eager"),
		elem(OpPolyFwdBwd, KindSpeedup, 5, true, "polynomial fwd+bwd (fused kernels) >= 5x PyTorch autograd"),
		elem(OpPolyAutograd, KindSpeedup, 5, false, "polynomial fwd+bwd (Go autograd) >= 5x PyTorch autograd"),
		elem(OpAxpby, KindSpeedup, 2, true, "axpby >= 2x PyTorch eager"),
		elem(OpNorm, KindSpeedup, 1, true, "norm >= PyTorch (vector_norm)"),
		elem(OpAddScalar, KindSpeedup, 1, false, "add_scalar >= PyTorch"),
		elem(OpCopy, KindSpeedup, 1, false, "copy kernel >= PyTorch copy_"),
	)
	for _, r := range c.Rows {
		if r.Op == OpRowSoftmax && r.DType == TargetDType && r.Metric == MetricTime {
			ts = append(ts, c.judgeOne(r.Key, r.Shape, KindSpeedup, 1, true, "row_softmax "+ShapeString(r.Shape)+" >= torch.softmax", ""))
		}
	}
	for _, r := range c.Rows {
		if r.DType == TargetDType && (r.Metric == MetricLatencySync || r.Metric == MetricLatencyBatch) {
			binding := r.Metric == MetricLatencyBatch && r.Op != OpMatMul
			what := "call+sync"
			if r.Metric == MetricLatencyBatch {
				what = "batched"
			}
			name := fmt.Sprintf("%s latency (%s) at %s <= 1/2 PyTorch", r.Op, what, HumanCount(r.Elems))
			ts = append(ts, c.judgeOne(r.Key, r.Shape, KindLatencyRatio, 0.5, binding, name, ""))
		}
	}
	for _, dt := range c.JudgedDTypes()[1:] {
		ts = append(ts, c.judgeHalf(dt)...)
	}
	return ts
}

// judgeHalf evaluates issue 14's targets in the 16-bit dtype dt.
func (c *Comparison) judgeHalf(dt string) []TargetResult {
	n, note := c.targetSize(dt)
	c.TargetNote = join(c.TargetNote, note)
	elem := func(op, kind string, thr float64, binding bool, name string) TargetResult {
		return c.judgeOne(Key{Op: op, DType: dt, Shape: fmt.Sprint(n), Metric: MetricTime}, []int{int(n)}, kind, thr, binding, name, "")
	}
	// Norm and RowSoftmax are binding in bfloat16, for information in float16.
	reductions := dt == "bfloat16"
	var ts []TargetResult
	for _, op := range append(slices.Clone(halfElementwiseOps), OpPolyAutograd) {
		binding := op != OpPolyAutograd
		ts = append(ts,
			elem(op, KindCopyFraction, 0.90, binding, fmt.Sprintf("%s %s >= 90%% of copy bandwidth", op, dt)),
			elem(op, KindSpeedup, 1, binding, fmt.Sprintf("%s %s >= PyTorch", op, dt)))
	}
	ts = append(ts, elem(OpNorm, KindSpeedup, 1, reductions, fmt.Sprintf("norm %s >= PyTorch (vector_norm)", dt)))
	for _, r := range c.Rows {
		if r.Op == OpRowSoftmax && r.DType == dt && r.Metric == MetricTime {
			name := fmt.Sprintf("row_softmax %s %s >= torch.softmax", dt, ShapeString(r.Shape))
			ts = append(ts, c.judgeOne(r.Key, r.Shape, KindSpeedup, 1, reductions, name, ""))
		}
	}
	return ts
}

func (c *Comparison) judgeOne(k Key, shape []int, kind string, thr float64, binding bool, name, note string) TargetResult {
	t := TargetResult{Name: name, Op: k.Op, DType: k.DType, Shape: shape, Metric: k.Metric, Kind: kind, Threshold: thr, Value: math.NaN(), Binding: binding, Note: note}
	r := c.Row(k)
	switch {
	case r == nil || r.Go == nil:
		t.Note = join(t.Note, "not measured in Go")
		return t
	case kind == KindCopyFraction:
		if r.Go.CopyFraction == 0 {
			t.Note = join(t.Note, "no copy baseline")
			return t
		}
		t.Value = r.Go.CopyFraction
		t.Met = t.Value >= thr
	case r.Torch == nil:
		t.Note = join(t.Note, "not measured in PyTorch")
		return t
	case kind == KindSpeedup:
		t.Value = r.Speedup
		t.Met = t.Value >= thr
	case kind == KindLatencyRatio:
		t.Value = r.Go.Seconds / r.Torch.Seconds
		t.Met = t.Value <= thr
	}
	return t
}

// MarshalJSON writes t with a Value of NaN (not measured) as null.
func (t TargetResult) MarshalJSON() ([]byte, error) {
	type plain TargetResult
	var v *float64
	if !math.IsNaN(t.Value) && !math.IsInf(t.Value, 0) {
		v = &t.Value
	}
	return json.Marshal(struct {
		plain
		Value *float64 `json:"value"`
	}{plain(t), v})
}

// UnmarshalJSON reads what MarshalJSON writes (null as NaN).
func (t *TargetResult) UnmarshalJSON(b []byte) error {
	type plain TargetResult
	var v struct {
		plain
		Value *float64 `json:"value"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*t = TargetResult(v.plain)
	t.Value = math.NaN()
	if v.Value != nil {
		t.Value = *v.Value
	}
	return nil
}

// WriteJSON writes the targets and both reports to the file path.
func (c *Comparison) WriteJSON(path string) error {
	met, total := c.MetCount()
	b, err := json.MarshalIndent(struct {
		Met        int            `json:"met"`
		Total      int            `json:"total"`
		TargetNote string         `json:"target_note,omitempty"`
		Targets    []TargetResult `json:"targets"`
		Go         *Report        `json:"go"`
		Torch      *Report        `json:"torch"`
	}{met, total, c.TargetNote, c.Targets, c.Go, c.Torch}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + "; " + b
}

// MetCount returns how many binding targets were met, out of how many.
func (c *Comparison) MetCount() (met, total int) {
	for _, t := range c.Targets {
		if t.Binding {
			total++
			if t.Met {
				met++
			}
		}
	}
	return met, total
}

// HumanCount formats an element count with binary suffixes: 4096 -> "4K",
// 1<<28 -> "256M", 1000 -> "1000".
func HumanCount(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dG", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dM", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dK", n>>10)
	}
	return fmt.Sprint(n)
}
