package optest

import (
	"fmt"
	"math"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// Tolerance is the default of Spec.Tol: a result may differ from the
// float64 reference by rtol*|want| + atol, with rtol = atol a few roundings
// of the dtype (float64 1e-12, float32 1e-6, float16 2^-10, bfloat16 2^-7),
// which a kernel computing in float32 or wider and rounding once meets.
func Tolerance(d ops.DType) (rtol, atol float64) {
	switch d {
	case ops.Float32:
		return 1e-6, 1e-6
	case ops.Float16:
		return 0x1p-10, 0x1p-10
	case ops.BFloat16:
		return 0x1p-7, 0x1p-7
	}
	return 1e-12, 1e-12
}

// Compare returns an error naming the first element where got and want
// differ by more than rtol*|want| + atol (NaN matches only NaN, an
// infinity only itself), or where their lengths differ.
func Compare(got, want []float64, rtol, atol float64) error {
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
			if d := math.Abs(g - w); !(d <= rtol*math.Abs(w)+atol) {
				return fmt.Errorf("element %d of %d is %.17g, want %.17g (|diff| %.3g > %.3g*|want| + %.3g)", i, len(want), g, w, d, rtol, atol)
			}
		}
	}
	return nil
}
