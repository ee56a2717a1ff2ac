package bench

import (
	"math"
	"slices"
	"sort"
)

// The benchmarked ops, as named in the JSON of both implementations.
//
// OpPolyFwdBwd is Polynomial followed by PolynomialBackward (two fused
// kernels) in Go, and the forward plus its backward through autograd in
// PyTorch. OpPolyAutograd is the same through Go's autograd (Polynomial on
// a tensor requiring grad, then BackwardWithGrad); PyTorch has only one
// variant, reported as OpPolyFwdBwd.
const (
	OpCopy         = "copy"                        // device-to-device copy (Go: the Contiguous kernel; PyTorch: copy_)
	OpAddScalar    = "add_scalar"                  // ops.AddScalar(ctx, x, s); x + s
	OpAxpby        = "axpby"                       // ops.Axpby(ctx, a, x, b, y); a*x + b*y
	OpNorm         = "norm"                        // ops.Norm(ctx, x); torch.linalg.vector_norm(x)
	OpPolynomial   = "polynomial"                  // ops.Polynomial(ctx, x, a, b, c, d); a*x**3 + b*x**2 + c*x + d
	OpPolyFwdBwd   = "polynomial_fwd_bwd"          // Polynomial, then PolynomialBackward(ctx, g, x, a, b, c)
	OpPolyAutograd = "polynomial_fwd_bwd_autograd" // Polynomial and BackwardWithGrad(ctx, g) (Go only)
	OpRowSoftmax   = "row_softmax"                 // ops.RowSoftmax(ctx, x) on [B, D]; torch.softmax(x, dim=1)
	OpMatMul       = "matmul"                      // ops.MatMul(ctx, a, b) on [n, n]; torch.matmul without TF32
)

// Polynomial coefficients used by every implementation.
const (
	PolyA, PolyB, PolyC, PolyD = 1.5, -2.0, 0.5, 3.0
	// AxpbyA and AxpbyB are the scalars of Axpby; AddScalarS that of AddScalar.
	AxpbyA, AxpbyB, AddScalarS = 2.0, -3.0, 1.0
)

// ElementwiseOps are the ops measured over the size sweep of 1-D tensors,
// in report order.
var ElementwiseOps = []string{OpCopy, OpAddScalar, OpAxpby, OpNorm, OpPolynomial, OpPolyFwdBwd, OpPolyAutograd}

// AllOps is every op, in report order.
var AllOps = append(slices.Clone(ElementwiseOps), OpRowSoftmax, OpMatMul)

// HasCopyBaseline reports whether op's bandwidth is compared with the copy
// (every op but MatMul).
func HasCopyBaseline(op string) bool { return op != OpMatMul && slices.Contains(AllOps, op) }

// Bytes returns the bytes op must move on a tensor of the given shape with
// elements of elemSize bytes: each input read once and each output written
// once (n is the number of elements of the shape):
//
//	copy, add_scalar, polynomial, row_softmax: 2n   (read x, write the result)
//	axpby:                                     3n   (read x and y, write)
//	norm:                                      n+1  (read x, write one value)
//	polynomial_fwd_bwd(_autograd):             5n   (forward: read x, write y;
//	                                                 backward: read g and x, write dx)
//	matmul [n, n]:                             3n²  (read a and b, write c)
//
// It returns 0 for an unknown op.
func Bytes(op string, elemSize int, shape []int) int64 {
	n := int64(numel(shape))
	s := int64(elemSize)
	switch op {
	case OpCopy, OpAddScalar, OpPolynomial, OpRowSoftmax:
		return 2 * n * s
	case OpAxpby:
		return 3 * n * s
	case OpNorm:
		return (n + 1) * s
	case OpPolyFwdBwd, OpPolyAutograd:
		return 5 * n * s
	case OpMatMul:
		return 3 * n * s // shape [n, n]: three n×n matrices
	}
	return 0
}

// Flops returns the floating-point operations of op: for MatMul of two
// [n, n] matrices (shape [n, n]) 2n³ multiply-adds counted as two; 0 for
// the other ops.
func Flops(op string, shape []int) float64 {
	if op != OpMatMul || len(shape) != 2 {
		return 0
	}
	m, n := float64(shape[0]), float64(shape[1])
	return 2 * m * n * n
}

// Median returns the median of xs (the mean of the two middle values for
// an even count; NaN for none). xs is not modified.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// Min returns the smallest of xs (NaN for none).
func Min(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return slices.Min(xs)
}

// DefaultSizes returns the element counts of the size sweep: the powers of
// 4 from 4096 up to maxElems, and maxElems itself if it lies above the last
// of them.
func DefaultSizes(maxElems int64) []int {
	var sizes []int
	for n := int64(4096); n <= maxElems; n *= 4 {
		sizes = append(sizes, int(n))
	}
	if maxElems > 4096 && (len(sizes) == 0 || int64(sizes[len(sizes)-1]) < maxElems) {
		sizes = append(sizes, int(maxElems))
	}
	return sizes
}
