package testkit

import "fmt"

// Precision is one row of the tolerance table: what a result of one dtype
// may differ from its float64 reference by, for each way of computing it.
// Every bound is rtol = atol (|got-want| <= tol*|want| + tol) unless said.
type Precision struct {
	// UnitRoundoff is the largest relative error of one rounding to
	// nearest in the dtype (2^-p for a p-bit significand).
	UnitRoundoff float64
	// Op is the tolerance of one op: a kernel that computes in float32 or
	// wider and rounds once (a few roundings of the dtype).
	Op float64
	// Chain is the tolerance of a fused chain or a collective: several
	// steps, each rounded (to float32 for the 16-bit dtypes; CUDA's math
	// functions within 2 ulp), the result rounded once.
	Chain float64
}

// table is the one tolerance table, by dtype name (ops.DType's String).
var table = map[string]Precision{
	"float64":  {UnitRoundoff: 0x1p-53, Op: 1e-12, Chain: 1e-12},
	"float32":  {UnitRoundoff: 0x1p-24, Op: 1e-6, Chain: 1e-5},
	"float16":  {UnitRoundoff: 0x1p-11, Op: 0x1p-10, Chain: 0x1p-9},
	"bfloat16": {UnitRoundoff: 0x1p-8, Op: 0x1p-7, Chain: 0x1p-6},
}

// For returns the row of the dtype named dtype ("float32", "float64",
// "float16" or "bfloat16"); it panics on another name (a test's bug).
func For(dtype fmt.Stringer) Precision {
	p, ok := table[dtype.String()]
	if !ok {
		panic(fmt.Sprintf("testkit: no tolerances for dtype %v", dtype))
	}
	return p
}
