package bench

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// fmtMs formats seconds as milliseconds with about four significant
// digits.
func fmtMs(s float64) string {
	ms := s * 1e3
	switch {
	case math.IsNaN(ms) || ms <= 0:
		return "—"
	case ms >= 100:
		return fmt.Sprintf("%.1f", ms)
	case ms >= 10:
		return fmt.Sprintf("%.2f", ms)
	case ms >= 1:
		return fmt.Sprintf("%.3f", ms)
	}
	return fmt.Sprintf("%.4f", ms)
}

// fmtUs formats seconds as microseconds.
func fmtUs(s float64) string {
	if math.IsNaN(s) || s <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", s*1e6)
}

func fmtNum(v float64, prec int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) || v == 0 {
		return "—"
	}
	return fmt.Sprintf("%.*f", prec, v)
}

// fmtSig formats v with three significant digits.
func fmtSig(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) || v == 0 {
		return "—"
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

func fmtPct(v float64) string {
	if math.IsNaN(v) || v == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f%%", 100*v)
}

func fmtX(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) || v == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2fx", v)
}

// table writes a markdown table.
type table struct {
	w      io.Writer
	header []string
	rows   [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) flush() {
	if len(t.rows) == 0 {
		return
	}
	fmt.Fprintf(t.w, "| %s |\n", strings.Join(t.header, " | "))
	seps := make([]string, len(t.header))
	for i := range seps {
		seps[i] = "---"
		if i > 0 {
			seps[i] = "---:"
		}
	}
	fmt.Fprintf(t.w, "|%s|\n", strings.Join(seps, "|"))
	for _, r := range t.rows {
		fmt.Fprintf(t.w, "| %s |\n", strings.Join(r, " | "))
	}
	fmt.Fprintln(t.w)
}

// DeviceLine describes d in words, e.g. "cuda:0, NVIDIA H100 80GB HBM3
// (compute capability 9.0, 132 SMs), driver 580.65".
func DeviceLine(d DeviceDesc) string {
	s := d.Type
	if d.Type != "cpu" {
		s = fmt.Sprintf("%s:%d", d.Type, d.Index)
	}
	if d.Name != "" {
		s += ", " + d.Name
	}
	var extra []string
	if d.Capability != "" {
		extra = append(extra, "compute capability "+d.Capability)
	}
	if d.SMs > 0 {
		extra = append(extra, fmt.Sprintf("%d SMs", d.SMs))
	}
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, ", ") + ")"
	}
	if d.Driver != "" {
		s += ", driver " + d.Driver
	}
	return s
}

func envLine(env map[string]string) string {
	var keys []string
	for k := range env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+" "+env[k])
	}
	return strings.Join(parts, ", ")
}

// sortedResults returns r's results of the given metric in a stable
// report order: by op (AllOps order), dtype, then size.
func sortedResults(rs []Result, metric string) []*Result {
	var out []*Result
	for i := range rs {
		if rs[i].Metric == metric {
			out = append(out, &rs[i])
		}
	}
	opIndex := func(op string) int {
		if i := slices.Index(AllOps, op); i >= 0 {
			return i
		}
		return len(AllOps)
	}
	slices.SortStableFunc(out, func(a, b *Result) int {
		if d := opIndex(a.Op) - opIndex(b.Op); d != 0 {
			return d
		}
		if c := compareDTypes(a.DType, b.DType); c != 0 {
			return c
		}
		if a.Elems != b.Elems {
			if a.Elems < b.Elems {
				return -1
			}
			return 1
		}
		// Same size: the shape with the shorter rows first.
		ra, rb := slices.Clone(a.Shape), slices.Clone(b.Shape)
		slices.Reverse(ra)
		slices.Reverse(rb)
		return slices.Compare(ra, rb)
	})
	return out
}

// WriteMarkdown writes r's results as markdown tables.
func (r *Report) WriteMarkdown(w io.Writer) {
	fmt.Fprintf(w, "# ops benchmark (%s) on %s\n\n", r.Impl, DeviceLine(r.Device))
	fmt.Fprintf(w, "- date: %s\n- timer: %s\n", r.Date, r.Timer)
	if len(r.Env) > 0 {
		fmt.Fprintf(w, "- env: %s\n", envLine(r.Env))
	}
	fmt.Fprintf(w, "- bandwidth = bytes the op must move / time per call; %% of copy = bandwidth / bandwidth of the copy of the same elements in this run\n\n")
	times := sortedResults(r.Results, MetricTime)
	for _, dt := range r.DTypes() {
		fmt.Fprintf(w, "## Elementwise ops and Norm, %s\n\n", dt)
		t := table{w: w, header: []string{"op", "elements", "time (ms)", "GB/s", "% of copy"}}
		for _, res := range times {
			if res.DType == dt && slices.Contains(ElementwiseOps, res.Op) {
				t.add(res.Op, HumanCount(res.Elems), timeOrError(res, fmtMs), fmtNum(res.GBps, 0), fmtPct(res.CopyFraction))
			}
		}
		t.flush()
	}
	t := table{w: w, header: []string{"RowSoftmax", "shape", "time (ms)", "GB/s", "% of copy"}}
	for _, res := range times {
		if res.Op == OpRowSoftmax {
			t.add(res.DType, ShapeString(res.Shape), timeOrError(res, fmtMs), fmtNum(res.GBps, 0), fmtPct(res.CopyFraction))
		}
	}
	if len(t.rows) > 0 {
		fmt.Fprintf(w, "## RowSoftmax\n\n")
		t.flush()
	}
	t = table{w: w, header: []string{"MatMul", "n", "time (ms)", "TFLOP/s"}}
	for _, res := range times {
		if res.Op == OpMatMul {
			t.add(res.DType, fmt.Sprint(res.Shape[0]), timeOrError(res, fmtMs), fmtSig(res.TFLOPs))
		}
	}
	if len(t.rows) > 0 {
		fmt.Fprintf(w, "## MatMul\n\n")
		t.flush()
	}
	t = table{w: w, header: []string{"op", "dtype", "shape", "call+sync (µs)", "batched (µs)"}}
	for _, res := range sortedResults(r.Results, MetricLatencySync) {
		b := r.Find(Key{res.Op, res.DType, ShapeString(res.Shape), MetricLatencyBatch})
		bs := "—"
		if b != nil {
			bs = timeOrError(b, fmtUs)
		}
		t.add(res.Op, res.DType, ShapeString(res.Shape), timeOrError(res, fmtUs), bs)
	}
	if len(t.rows) > 0 {
		fmt.Fprintf(w, "## Per-call latency\n\ncall+sync: median over %d calls of one call followed by a synchronization; batched: %d calls back to back, one synchronization, divided by %d (median of 5).\n\n",
			r.Settings.LatencyCalls, r.Settings.LatencyCalls, r.Settings.LatencyCalls)
		t.flush()
	}
}

func timeOrError(r *Result, f func(float64) string) string {
	if r.Error != "" {
		return "error: " + strings.ReplaceAll(r.Error, "|", "/")
	}
	return f(r.Seconds)
}

func yesNo(t TargetResult) string {
	switch {
	case math.IsNaN(t.Value):
		return "n/a"
	case t.Met:
		return "yes"
	}
	return "no"
}

// short names a target in a cell, e.g. ">= 90% copy: yes".
func (t TargetResult) short() string {
	var s string
	switch t.Kind {
	case KindCopyFraction:
		s = fmt.Sprintf(">= %.0f%% copy", 100*t.Threshold)
	case KindSpeedup:
		s = fmt.Sprintf(">= %gx", t.Threshold)
	case KindLatencyRatio:
		s = fmt.Sprintf("<= %gx", t.Threshold)
	}
	return s + ": " + yesNo(t)
}

func (t TargetResult) valueString() string {
	switch t.Kind {
	case KindCopyFraction:
		return fmtPct(t.Value)
	}
	return fmtX(t.Value)
}

func (t TargetResult) required() string {
	switch t.Kind {
	case KindCopyFraction:
		return fmt.Sprintf(">= %.0f%% of copy", 100*t.Threshold)
	case KindSpeedup:
		return fmt.Sprintf(">= %gx", t.Threshold)
	}
	return fmt.Sprintf("<= %gx", t.Threshold)
}

// targetCells returns, per row key, the binding targets judged on it.
func (c *Comparison) targetCells() map[Key]string {
	m := map[Key]string{}
	for _, t := range c.Targets {
		if !t.Binding {
			continue
		}
		k := Key{t.Op, t.DType, ShapeString(t.Shape), t.Metric}
		m[k] = join(m[k], t.short())
	}
	return m
}

// WriteMarkdown writes the comparison: the targets, then side-by-side
// tables of every measurement.
func (c *Comparison) WriteMarkdown(w io.Writer) {
	dev := c.Torch.Device
	if dev.Name == "" {
		dev = c.Go.Device
	}
	if dev.Driver == "" {
		dev.Driver = c.Go.Device.Driver
	}
	fmt.Fprintf(w, "# Go ops vs PyTorch on %s\n\n", DeviceLine(dev))
	fmt.Fprintf(w, "- Go: %s; %s; %s\n", c.Go.Date, envLine(c.Go.Env), c.Go.Timer)
	fmt.Fprintf(w, "- PyTorch: %s; %s; %s\n", c.Torch.Date, envLine(c.Torch.Env), c.Torch.Timer)
	fmt.Fprintf(w, "- speedup = PyTorch time / Go time; %% of copy = bandwidth (bytes the op must move / time) over the bandwidth of the same implementation's copy of as many elements, same run\n")
	met, total := c.MetCount()
	fmt.Fprintf(w, "- **targets met: %d of %d**\n\n", met, total)

	fmt.Fprintf(w, "## Targets (%s)\n\n", strings.Join(c.JudgedDTypes(), ", "))
	if c.TargetNote != "" {
		fmt.Fprintf(w, "Note: %s.\n\n", c.TargetNote)
	}
	t := table{w: w, header: []string{"target", "size", "Go", "PyTorch", "value", "required", "met"}}
	for _, tr := range c.Targets {
		r := c.Row(Key{tr.Op, tr.DType, ShapeString(tr.Shape), tr.Metric})
		gs, ts := "—", "—"
		f := fmtMs
		unit := " ms"
		if tr.Metric != MetricTime {
			f, unit = fmtUs, " µs"
		}
		if r != nil && r.Go != nil {
			gs = f(r.Go.Seconds) + unit
		}
		if r != nil && r.Torch != nil {
			ts = f(r.Torch.Seconds) + unit
		}
		size := HumanCount(int64(numel(tr.Shape)))
		if len(tr.Shape) == 2 {
			size = ShapeString(tr.Shape)
		}
		m := yesNo(tr)
		if !tr.Binding {
			m += " (info)"
		}
		name := tr.Name
		if tr.Note != "" {
			name += " (" + tr.Note + ")"
		}
		t.add(name, size, gs, ts, tr.valueString(), tr.required(), m)
	}
	t.flush()

	cells := c.targetCells()
	dtypes := c.Go.DTypes()
	for _, d := range c.Torch.DTypes() {
		if !slices.Contains(dtypes, d) {
			dtypes = append(dtypes, d)
		}
	}
	for _, dt := range dtypes {
		fmt.Fprintf(w, "## Elementwise ops and Norm, %s\n\n", dt)
		t := table{w: w, header: []string{"op", "elements", "Go (ms)", "PyTorch (ms)", "speedup", "Go GB/s", "Go % of copy", "PyTorch GB/s", "PyTorch % of copy", "target"}}
		for _, r := range c.sortedRows(MetricTime) {
			if r.DType == dt && slices.Contains(ElementwiseOps, r.Op) {
				t.add(c.rowCells(r, HumanCount(r.Elems), cells)...)
			}
		}
		t.flush()
	}
	t = table{w: w, header: []string{"RowSoftmax", "shape", "Go (ms)", "PyTorch (ms)", "speedup", "Go GB/s", "Go % of copy", "PyTorch GB/s", "PyTorch % of copy", "target"}}
	for _, r := range c.sortedRows(MetricTime) {
		if r.Op == OpRowSoftmax {
			cs := c.rowCells(r, ShapeString(r.Shape), cells)
			cs[0] = r.DType
			t.add(cs...)
		}
	}
	if len(t.rows) > 0 {
		fmt.Fprintf(w, "## RowSoftmax vs torch.softmax(x, dim=1)\n\n")
		t.flush()
	}
	t = table{w: w, header: []string{"MatMul", "n", "Go (ms)", "PyTorch (ms)", "Go TFLOP/s", "PyTorch TFLOP/s", "Go / PyTorch speed"}}
	for _, r := range c.sortedRows(MetricTime) {
		if r.Op == OpMatMul {
			g, tt := pick(r.Go), pick(r.Torch)
			t.add(r.DType, fmt.Sprint(r.Shape[0]), fmtMs(g.Seconds), fmtMs(tt.Seconds), fmtSig(g.TFLOPs), fmtSig(tt.TFLOPs), fmtPct(r.Speedup))
		}
	}
	if len(t.rows) > 0 {
		fmt.Fprintf(w, "## MatMul vs torch.matmul (on a GPU: cuBLAS, TF32 off)\n\n")
		t.flush()
	}
	t = table{w: w, header: []string{"op", "dtype", "shape", "mode", "Go (µs)", "PyTorch (µs)", "Go / PyTorch", "target"}}
	for _, metric := range []string{MetricLatencySync, MetricLatencyBatch} {
		for _, r := range c.sortedRows(metric) {
			mode := "call+sync"
			if metric == MetricLatencyBatch {
				mode = "batched"
			}
			g, tt := pick(r.Go), pick(r.Torch)
			target := cells[r.Key]
			if target == "" {
				target = "—"
			}
			t.add(r.Op, r.DType, ShapeString(r.Shape), mode, fmtUs(g.Seconds), fmtUs(tt.Seconds), fmtX(1/r.Speedup), target)
		}
	}
	if len(t.rows) > 0 {
		fmt.Fprintf(w, "## Per-call latency\n\ncall+sync: median over %d calls of the host time of one call followed by a synchronization (Go: ops.Synchronize; Python: torch.cuda.synchronize). batched: %d calls back to back and one synchronization, divided by %d (median of 5). Both from the host clock, the same way in Go and Python.\n\n",
			c.Go.Settings.LatencyCalls, c.Go.Settings.LatencyCalls, c.Go.Settings.LatencyCalls)
		t.flush()
	}
}

// pick returns r, or an empty result for nil.
func pick(r *Result) *Result {
	if r == nil {
		return &Result{}
	}
	return r
}

func (c *Comparison) rowCells(r *Row, size string, cells map[Key]string) []string {
	g, t := pick(r.Go), pick(r.Torch)
	target := cells[r.Key]
	if target == "" {
		target = "—"
	}
	return []string{r.Op, size, fmtMs(g.Seconds), fmtMs(t.Seconds), fmtX(r.Speedup),
		fmtNum(g.GBps, 0), fmtPct(g.CopyFraction), fmtNum(t.GBps, 0), fmtPct(t.CopyFraction), target}
}

// sortedRows returns the rows of one metric in report order.
func (c *Comparison) sortedRows(metric string) []*Row {
	var rs []Result
	idx := map[Key]*Row{}
	for i := range c.Rows {
		r := &c.Rows[i]
		if r.Metric == metric {
			rs = append(rs, Result{Op: r.Op, DType: r.DType, Shape: r.Shape, Elems: r.Elems, Metric: metric})
			idx[r.Key] = r
		}
	}
	var out []*Row
	for _, res := range sortedResults(rs, metric) {
		out = append(out, idx[res.Key()])
	}
	return out
}
