package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
)

// readTorch reads torch_fuse.py's JSON; "" gives nil.
func readTorch(file string) (*torchResults, error) {
	if file == "" {
		return nil, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	t := &torchResults{}
	if err := json.Unmarshal(data, t); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return t, nil
}

type torchResults struct {
	Device      string                        `json:"device"`
	Torch       string                        `json:"torch"`
	CuPy        string                        `json:"cupy"`
	Rows        map[string]map[string]float64 `json:"rows"`
	FirstCallMS map[string]float64            `json:"first_call_ms"`
}

// Targets of issue 29.
const (
	targetCopyFrac  = 0.90 // fused chain at 64M and 256M: >= 90% of the copy's bandwidth
	targetPolyFrac  = 0.95 // fused polynomial >= 95% of the hand-written kernel
	targetEagerFrac = 0.10 // fused at 4K <= 0.1x PyTorch eager
	targetFirstMS   = 500
	targetWarmMS    = 5
)

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "**missed**"
}

// printTable prints, per size, our rows and PyTorch's, and the verdicts.
func printTable(w *os.File, g results, t *torchResults, sizes []int) {
	fmt.Fprintf(w, "## Fused 20-op chain (y+0.25, y*0.5 alternating), float32, µs per call (CUDA events)\n\n")
	fmt.Fprintf(w, "Ours: %s", g.Device)
	if t != nil {
		fmt.Fprintf(w, "; PyTorch %s, CuPy %s on %s", t.Torch, t.CuPy, t.Device)
	}
	fmt.Fprintf(w, "\n\n| elements | copy | ours eager | ours graph | **ours fused** | ours fused in graph |")
	if t != nil {
		fmt.Fprintf(w, " torch copy | torch eager | torch graph | torch.compile | compile + graphs | cupy.fuse |")
	}
	fmt.Fprintf(w, "\n|---|---:|---:|---:|---:|---:|")
	if t != nil {
		fmt.Fprintf(w, "---:|---:|---:|---:|---:|---:|")
	}
	fmt.Fprintln(w)
	f := func(v float64, ok bool) string {
		if !ok {
			return "-"
		}
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	for _, n := range sizes {
		r := g.Rows[strconv.Itoa(n)]
		fmt.Fprintf(w, "| %d | %s | %s | %s | **%s** | %s |", n, f(r["copy"], true), f(r["eager"], true), f(r["graph"], true), f(r["fused"], true), f(r["fused_graph"], true))
		if t != nil {
			tr, ok := t.Rows[strconv.Itoa(n)]
			for _, k := range []string{"copy", "eager", "graph", "compile", "compile_graphs", "cupy_fuse"} {
				v, has := tr[k]
				fmt.Fprintf(w, " %s |", f(v, ok && has))
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\n## Polynomial a*x^3+b*x^2+c*x+d, float32, µs per call\n\n| elements | hand-written | fused | fused / hand-written speed | hand-written in graph | fused in graph | in graph: fused / hand-written | fused fwd+bwd (autograd) | fwd+bwd %% of copy |")
	if t != nil {
		fmt.Fprintf(w, " torch eager | torch.compile |")
	}
	fmt.Fprintf(w, "\n|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	if t != nil {
		fmt.Fprintf(w, "---:|---:|")
	}
	fmt.Fprintln(w)
	for _, n := range sizes {
		r := g.Rows[strconv.Itoa(n)]
		// fwd+bwd moves 5 passes (x, y; x, g, dx); a copy moves 2.
		fmt.Fprintf(w, "| %d | %.1f | %.1f | %.3f | %.1f | %.1f | %.3f | %.1f | %.1f%% |", n, r["poly_hand"], r["poly_fused"], r["poly_hand"]/r["poly_fused"],
			r["poly_hand_graph"], r["poly_fused_graph"], r["poly_hand_graph"]/r["poly_fused_graph"], r["poly_fwdbwd"], 100*2.5*r["copy"]/r["poly_fwdbwd"])
		if t != nil {
			tr := t.Rows[strconv.Itoa(n)]
			fmt.Fprintf(w, " %s | %s |", f(tr["poly_eager"], tr != nil), f(tr["poly_compile"], tr != nil))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\n## Targets (issue 29)\n\n")
	for _, n := range sizes {
		r := g.Rows[strconv.Itoa(n)]
		p, pg := r["poly_hand"]/r["poly_fused"], r["poly_hand_graph"]/r["poly_fused_graph"]
		if n >= 64<<20 {
			frac := r["copy"] / r["fused"]
			fmt.Fprintf(w, "- %d: fused chain at %.1f%% of the copy's bandwidth (target >= 90%%): %s\n", n, 100*frac, verdict(frac >= targetCopyFrac))
			fmt.Fprintf(w, "- %d: fused polynomial at %.1f%% of the hand-written kernel's speed (target >= 95%%): %s\n", n, 100*p, verdict(p >= targetPolyFrac))
			fb := 2.5 * r["copy"] / r["poly_fwdbwd"]
			fmt.Fprintf(w, "- %d: fused polynomial forward+backward at %.1f%% of copy (target >= 90%%): %s\n", n, 100*fb, verdict(fb >= 0.90))
		} else if pg > 0 {
			// Below 64M a call's host work (allocation, launch) takes longer than its kernel: the
			// graph rows compare the kernels.
			fmt.Fprintf(w, "- %d: fused polynomial in a graph at %.1f%% of the hand-written kernel's speed (target >= 95%%): %s; called eagerly %.1f%% (the host's work per call)\n",
				n, 100*pg, verdict(pg >= targetPolyFrac), 100*p)
		}
		if n == 4096 && t != nil {
			tr := t.Rows["4096"]
			if e, ok := tr["eager"]; ok {
				fmt.Fprintf(w, "- 4096: fused %.1f µs = %.3fx PyTorch eager (target <= 0.1x): %s\n", r["fused"], r["fused"]/e, verdict(r["fused"] <= targetEagerFrac*e))
			}
			if c, ok := tr["cupy_fuse"]; ok {
				fmt.Fprintf(w, "- 4096: fused %.1f µs against cupy.fuse %.1f µs (target <= cupy.fuse): %s\n", r["fused"], c, verdict(r["fused"] <= c))
			}
		}
	}
	if t != nil {
		for _, k := range slices.Sorted(maps.Keys(t.FirstCallMS)) {
			fmt.Fprintf(w, "- first call of %s: %.0f ms\n", k, t.FirstCallMS[k])
		}
	}
}
