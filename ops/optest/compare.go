package optest

import (
	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/internal/testkit"
)

// Tolerance is the default of Spec.Tol: a result may differ from the
// float64 reference by rtol*|want| + atol, with rtol = atol a few roundings
// of the dtype (float64 1e-12, float32 1e-6, float16 2^-10, bfloat16 2^-7),
// which a kernel computing in float32 or wider and rounding once meets.
func Tolerance(d ops.DType) (rtol, atol float64) {
	tol := testkit.For(d).Op
	return tol, tol
}

// ChainTolerance is the tolerance of a result computed in several steps,
// each rounded, such as a fused chain or a collective (rtol = atol: float64
// 1e-12, float32 1e-5, float16 2^-9, bfloat16 2^-6). Tolerance and
// ChainTolerance are the two columns of one table.
func ChainTolerance(d ops.DType) (rtol, atol float64) {
	tol := testkit.For(d).Chain
	return tol, tol
}

// Compare returns an error naming the first element where got and want
// differ by more than rtol*|want| + atol (NaN matches only NaN, an
// infinity only itself), or where their lengths differ.
func Compare(got, want []float64, rtol, atol float64) error {
	return testkit.Compare(got, want, rtol, atol)
}
