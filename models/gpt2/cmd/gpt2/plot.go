package main

import (
	"fmt"
	"image/color"
	"path/filepath"

	"github.com/rules-cuda-go/rules_cuda_go/models/gpt2"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// writePlot draws the run's training loss per step and its validation
// losses into out/loss.png; step is the run's current step.
func writePlot(out string, rs gpt2.RunState, step int) error {
	p := plot.New()
	p.Title.Text = "GPT-2 loss"
	p.X.Label.Text = "step"
	p.Y.Label.Text = "cross-entropy (nats)"
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	first := step - len(rs.Losses) // the losses are those of the steps up to step
	tr := make(plotter.XYs, len(rs.Losses))
	for i, l := range rs.Losses {
		tr[i] = plotter.XY{X: float64(first + i + 1), Y: l}
	}
	if len(tr) > 0 {
		line, err := plotter.NewLine(tr)
		if err != nil {
			return err
		}
		line.Color = color.RGBA{0, 114, 178, 255}
		p.Add(line)
		p.Legend.Add("train", line)
	}
	if len(rs.ValLoss) > 0 {
		v := make(plotter.XYs, len(rs.ValLoss))
		for i := range rs.ValLoss {
			v[i] = plotter.XY{X: float64(rs.ValSteps[i]), Y: rs.ValLoss[i]}
		}
		line, points, err := plotter.NewLinePoints(v)
		if err != nil {
			return err
		}
		line.Color, points.Color = color.RGBA{213, 94, 0, 255}, color.RGBA{213, 94, 0, 255}
		p.Add(line, points)
		p.Legend.Add("validation", line, points)
	}
	path := filepath.Join(out, "loss.png")
	if err := p.Save(8*vg.Inch, 5*vg.Inch, path); err != nil {
		return fmt.Errorf("plot: %w", err)
	}
	fmt.Println("wrote", path)
	return nil
}
