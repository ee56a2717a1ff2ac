// Package dims merges the dimensions of strided operands that are traversed
// in step: the one place the CPU iterator (package ops) and the CUDA
// launchers (package ops/cuda) simplify a shape before indexing it.
package dims

// Merge merges the dimensions of a logical shape that several strided
// operands traverse in step: size-1 dimensions are dropped, and a dimension
// is folded into the one before it when, in every operand, the outer stride
// equals the inner stride times the inner size. strides[k] are operand k's
// strides (one per dimension of shape). The result lists the merged sizes
// (outermost first; empty when every dimension has size 1) and each
// operand's merged strides. A contiguous operand ends up with a single
// dimension of stride 1 (or none, for one element); a contiguous output,
// traversed with its operands, never prevents a merge.
func Merge(shape []int, strides ...[]int) (sizes []int, merged [][]int) {
	merged = make([][]int, len(strides))
	for d, s := range shape {
		if s == 1 {
			continue
		}
		if k := len(sizes) - 1; k >= 0 && mergeable(merged, strides, k, d, s) {
			sizes[k] *= s
			for op, st := range strides {
				merged[op][k] = st[d]
			}
			continue
		}
		sizes = append(sizes, s)
		for op, st := range strides {
			merged[op] = append(merged[op], st[d])
		}
	}
	return sizes, merged
}

// mergeable reports whether dimension d (of size s) continues merged
// dimension k in every operand.
func mergeable(merged, strides [][]int, k, d, s int) bool {
	for op, st := range strides {
		if merged[op][k] != st[d]*s {
			return false
		}
	}
	return true
}

// AtLeast1 is Merge, but a shape whose dimensions all have size 1 gives one
// dimension of size 1 and stride 1, so callers can always index the
// innermost dimension.
func AtLeast1(shape []int, strides ...[]int) (sizes []int, merged [][]int) {
	sizes, merged = Merge(shape, strides...)
	if len(sizes) == 0 {
		sizes = []int{1}
		for op := range merged {
			merged[op] = []int{1}
		}
	}
	return sizes, merged
}
