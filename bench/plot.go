package bench

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// palette colors one op each (Okabe-Ito, plus grey and black).
var palette = []color.RGBA{
	{0, 0, 0, 255},       // copy: black
	{230, 159, 0, 255},   // orange
	{86, 180, 233, 255},  // sky blue
	{0, 158, 115, 255},   // green
	{213, 94, 0, 255},    // vermillion
	{0, 114, 178, 255},   // blue
	{204, 121, 167, 255}, // purple
	{240, 228, 66, 255},  // yellow
	{128, 128, 128, 255}, // grey
}

func opColor(op string) color.Color {
	i := slices.Index(AllOps, op)
	if i < 0 {
		i = len(palette) - 1
	}
	return palette[i%len(palette)]
}

// sizeTicks labels the powers of 4 (and other powers of 2 when the range
// is small) with HumanCount.
func sizeTicks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	step := 2.0
	if hi/lo > 1<<10 {
		step = 4
	}
	for v := 1.0; v <= hi*1.0001; v *= 2 {
		if v < lo/1.0001 {
			continue
		}
		label := ""
		if e := math.Log2(v); math.Mod(e, math.Log2(step)) == 0 {
			label = HumanCount(int64(v))
		}
		ts = append(ts, plot.Tick{Value: v, Label: label})
	}
	return ts
}

// Series is one line of a bandwidth plot: GB/s against elements.
type Series struct {
	Label  string
	Op     string // colors the line
	Dashed bool
	X, Y   []float64 // elements, GB/s
}

// BandwidthSeries returns one Series per elementwise op of dtype in r
// (MetricTime results with a bandwidth), labeled op+suffix.
func BandwidthSeries(r *Report, dtype, suffix string, dashed bool) []Series {
	var out []Series
	for _, op := range ElementwiseOps {
		s := Series{Label: op + suffix, Op: op, Dashed: dashed}
		for _, res := range sortedResults(r.Results, MetricTime) {
			if res.Op == op && res.DType == dtype && res.GBps > 0 && len(res.Shape) == 1 {
				s.X = append(s.X, float64(res.Elems))
				s.Y = append(s.Y, res.GBps)
			}
		}
		if len(s.X) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// Panel is one plot of a figure.
type Panel struct {
	Title  string
	Series []Series
}

// WritePNG draws the panels one above the other (bandwidth against
// elements, log-x) and writes the PNG image to w.
func WritePNG(w io.Writer, panels []Panel) error {
	if len(panels) == 0 {
		return fmt.Errorf("bench: no data to plot")
	}
	plots := make([][]*plot.Plot, len(panels))
	for i, pn := range panels {
		p, err := newBandwidthPlot(pn)
		if err != nil {
			return err
		}
		plots[i] = []*plot.Plot{p}
	}
	const width, height = 11 * vg.Inch, 6 * vg.Inch
	img := vgimg.NewWith(vgimg.UseWH(width, height*vg.Length(len(panels))), vgimg.UseDPI(96))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: len(panels), Cols: 1, PadX: vg.Millimeter, PadY: 4 * vg.Millimeter,
		PadTop: 2 * vg.Millimeter, PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 4 * vg.Millimeter}
	canvases := plot.Align(plots, tiles, dc)
	for i := range plots {
		plots[i][0].Draw(canvases[i][0])
	}
	_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
}

// WritePNGFile is WritePNG into the file path.
func WritePNGFile(path string, panels []Panel) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := WritePNG(f, panels); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func newBandwidthPlot(pn Panel) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = pn.Title
	p.X.Label.Text = "elements"
	p.Y.Label.Text = "GB/s (bytes the op must move / time)"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.TickerFunc(sizeTicks)
	p.Y.Min = 0
	p.Add(plotter.NewGrid())
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs, p.Legend.YOffs = 6*vg.Millimeter, -2*vg.Millimeter
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	for _, s := range pn.Series {
		xys := make(plotter.XYs, len(s.X))
		for i := range s.X {
			xys[i] = plotter.XY{X: s.X[i], Y: s.Y[i]}
		}
		line, points, err := plotter.NewLinePoints(xys)
		if err != nil {
			return nil, fmt.Errorf("bench: plotting %s: %w", s.Label, err)
		}
		c := opColor(s.Op)
		line.LineStyle.Color, line.LineStyle.Width = c, vg.Points(1.5)
		points.GlyphStyle.Color, points.GlyphStyle.Radius = c, vg.Points(2.5)
		points.GlyphStyle.Shape = draw.CircleGlyph{}
		if s.Dashed {
			line.LineStyle.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			points.GlyphStyle.Shape = draw.BoxGlyph{}
		}
		p.Add(line, points)
		p.Legend.Add(s.Label, line, points)
	}
	return p, nil
}

// ReportPanels returns one bandwidth panel per dtype of r.
func ReportPanels(r *Report) []Panel {
	var ps []Panel
	for _, dt := range r.DTypes() {
		if s := BandwidthSeries(r, dt, "", false); len(s) > 0 {
			ps = append(ps, Panel{Title: fmt.Sprintf("%s ops, %s, %s", r.Impl, dt, DeviceLine(r.Device)), Series: s})
		}
	}
	return ps
}

// Panels returns one panel per dtype with Go's ops (solid) and PyTorch's
// (dashed).
func (c *Comparison) Panels() []Panel {
	dev := c.Torch.Device
	if dev.Name == "" {
		dev = c.Go.Device
	}
	var ps []Panel
	for _, dt := range c.Go.DTypes() {
		s := BandwidthSeries(c.Go, dt, " (Go)", false)
		s = append(s, BandwidthSeries(c.Torch, dt, " (PyTorch)", true)...)
		if len(s) > 0 {
			ps = append(ps, Panel{Title: fmt.Sprintf("Go (solid) vs PyTorch (dashed), %s, %s", dt, DeviceLine(dev)), Series: s})
		}
	}
	return ps
}
