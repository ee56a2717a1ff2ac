// Package testkit is what every test of this repository's tensor packages
// compares and lays out with: the test inputs' memory layouts, the
// comparison of a result with its float64 reference, and the one table of
// tolerances. It imports nothing of package ops, so that ops's own
// (internal) tests use it as ops/optest, the op author's kit built on it,
// does; optest re-exports what an op author needs.
package testkit

import (
	"fmt"
	"math"
)

// Compare returns an error naming the first element where got and want
// differ by more than rtol*|want| + atol (NaN matches only NaN, an
// infinity only itself), or where their lengths differ.
func Compare(got, want []float64, rtol, atol float64) error {
	return CompareEach(got, want, func(i int) float64 { return rtol*math.Abs(want[i]) + atol })
}

// CompareEach is Compare with the bound of element i given by tol(i).
func CompareEach(got, want []float64, tol func(i int) float64) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d values, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		switch {
		case math.IsNaN(w) || math.IsNaN(g):
			if math.IsNaN(w) != math.IsNaN(g) {
				return fmt.Errorf("element %d of %d is %v, want %v", i, len(want), g, w)
			}
		case math.IsInf(w, 0) || math.IsInf(g, 0):
			if g != w {
				return fmt.Errorf("element %d of %d is %v, want %v", i, len(want), g, w)
			}
		default:
			if d, b := math.Abs(g-w), tol(i); !(d <= b) {
				return fmt.Errorf("element %d of %d is %.17g, want %.17g (|diff| %.3g > %.3g)", i, len(want), g, w, d, b)
			}
		}
	}
	return nil
}
