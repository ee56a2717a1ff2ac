package bench

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// WriteSummary writes the comparison's headline as one markdown table (what
// docs/benchmarks.md shows as the current results): per dtype of the Go
// report, each elementwise op's % of the copy's bandwidth and speed against
// PyTorch at the size its targets are judged at, RowSoftmax and MatMul
// against PyTorch per shape, and the batched per-call latency at the
// latency size as Go's time over PyTorch's. A line above it names the
// device, both sides' dates and the targets met.
func (c *Comparison) WriteSummary(w io.Writer) {
	dev := c.Torch.Device
	if dev.Name == "" {
		dev = c.Go.Device
	}
	if dev.Driver == "" {
		dev.Driver = c.Go.Device.Driver
	}
	met, total := c.MetCount()
	fmt.Fprintf(w, "%s; Go %s, PyTorch %s (%s). **Targets met: %d of %d.**\n\n",
		DeviceLine(dev), c.Go.Date, c.Torch.Date, envLine(c.Torch.Env), met, total)

	dtypes := c.Go.DTypes()
	t := table{w: w, header: append([]string{"measurement"}, dtypes...)}
	add := func(name string, cell func(dt string) string) {
		cells := []string{name}
		measured := false
		for _, dt := range dtypes {
			s := cell(dt)
			if s != "—" {
				measured = true
			}
			cells = append(cells, s)
		}
		if measured {
			t.add(cells...)
		}
	}
	// The row of op in dt at its dtype's target size (elementwise) or shape.
	at := func(op, dt, shape, metric string) *Row {
		if shape == "" {
			n, _ := c.targetSize(dt)
			shape = fmt.Sprint(n)
		}
		return c.Row(Key{Op: op, DType: dt, Shape: shape, Metric: metric})
	}
	pct := func(r *Row) string {
		if r == nil || r.Go == nil {
			return "—"
		}
		return fmtPct(r.Go.CopyFraction)
	}
	speed := func(r *Row) string {
		if r == nil {
			return "—"
		}
		return fmtX(r.Speedup)
	}
	ratio := func(r *Row) string {
		if r == nil {
			return "—"
		}
		return fmtX(1 / r.Speedup)
	}
	size := HumanCount(TargetElems)
	for _, op := range []string{OpAddScalar, OpAxpby, OpPolynomial, OpPolyFwdBwd, OpPolyAutograd} {
		add(fmt.Sprintf("%s at %s, %% of copy", op, size), func(dt string) string { return pct(at(op, dt, "", MetricTime)) })
		add(fmt.Sprintf("%s at %s, vs PyTorch", op, size), func(dt string) string { return speed(at(Counterpart(op), dt, "", MetricTime)) })
	}
	add(fmt.Sprintf("%s at %s, vs PyTorch", OpNorm, size), func(dt string) string { return speed(at(OpNorm, dt, "", MetricTime)) })
	for _, op := range []string{OpRowSoftmax, OpMatMul} {
		for _, shape := range c.shapes(op, MetricTime) {
			add(fmt.Sprintf("%s %s, vs PyTorch", op, shape), func(dt string) string { return speed(at(op, dt, shape, MetricTime)) })
		}
	}
	for _, op := range AllOps {
		for _, shape := range c.shapes(op, MetricLatencyBatch) {
			add(fmt.Sprintf("%s %s per call (batched), Go / PyTorch", op, shape), func(dt string) string { return ratio(at(op, dt, shape, MetricLatencyBatch)) })
		}
	}
	t.flush()
}

// shapes returns the shapes (ShapeString) the Go report measured op at
// for metric, in report order.
func (c *Comparison) shapes(op, metric string) []string {
	var out []string
	for _, r := range c.Rows {
		if r.Op == op && r.Metric == metric && r.Go != nil && !slices.Contains(out, r.Key.Shape) {
			out = append(out, r.Key.Shape)
		}
	}
	return out
}

// The lines around the summary in a document (docs/benchmarks.md): the
// first names the run's folder, which holds go.json and torch.json.
const (
	SummaryBegin = "<!-- bench compare --summary: "
	SummaryEnd   = "<!-- end of bench compare --summary -->"
)

// SummarySection finds the summary section of doc: the folder its begin
// line names, and the byte offsets of the text between that line and the
// end line.
func SummarySection(doc []byte) (folder string, start, end int, err error) {
	b := bytes.Index(doc, []byte(SummaryBegin))
	if b < 0 {
		return "", 0, 0, fmt.Errorf("no line starting with %q (followed by the run's folder and ' -->')", SummaryBegin)
	}
	nl := bytes.IndexByte(doc[b:], '\n')
	if nl < 0 {
		return "", 0, 0, errors.New("the summary's begin line is the document's last line; the summary and its end line must follow it")
	}
	line := string(doc[b : b+nl])
	folder, ok := strings.CutSuffix(strings.TrimPrefix(line, SummaryBegin), " -->")
	if !ok || strings.TrimSpace(folder) == "" {
		return "", 0, 0, fmt.Errorf("summary begin line %q: want %sFOLDER -->", line, SummaryBegin)
	}
	start = b + nl + 1
	e := bytes.Index(doc[start:], []byte(SummaryEnd))
	if e < 0 {
		return "", 0, 0, fmt.Errorf("no %q after %q", SummaryEnd, line)
	}
	return strings.TrimSpace(folder), start, start + e, nil
}

// ReplaceSummary returns doc with its summary section (SummarySection)
// replaced by summary.
func ReplaceSummary(doc, summary []byte) ([]byte, error) {
	_, start, end, err := SummarySection(doc)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(doc[:start])
	out = append(out, '\n')
	out = append(out, bytes.TrimRight(summary, "\n")...)
	out = append(out, "\n\n"...)
	return append(out, doc[end:]...), nil
}
