package cuda

// coalesce merges the dimensions of a logical shape that several strided
// operands traverse in step: size-1 dimensions are dropped, and a dimension
// is folded into the one before it when, in every operand, the outer stride
// equals the inner stride times the inner size. strides[k] are operand k's
// strides. The result lists the merged sizes (outermost first, possibly
// empty) and each operand's merged strides. A contiguous operand ends up
// with a single dimension of stride 1 (or none, for one element); the
// output of a kernel, being contiguous, never prevents a merge.
func coalesce(shape []int, strides [][]int) (sizes []int, merged [][]int) {
	merged = make([][]int, len(strides))
	for d, s := range shape {
		if s == 1 {
			continue
		}
		if k := len(sizes) - 1; k >= 0 {
			ok := true
			for op, st := range strides {
				if merged[op][k] != st[d]*s {
					ok = false
					break
				}
			}
			if ok {
				sizes[k] *= s
				for op, st := range strides {
					merged[op][k] = st[d]
				}
				continue
			}
		}
		sizes = append(sizes, s)
		for op, st := range strides {
			merged[op] = append(merged[op], st[d])
		}
	}
	return sizes, merged
}
