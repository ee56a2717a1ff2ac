package ops

import (
	"context"
	"slices"
)

// Views share storage with their base and queue no work: Transpose, Narrow, Reshape.

func (t *Tensor) view(shape, strides []int, offset int) *Tensor {
	return &Tensor{shape: shape, strides: strides, offset: offset, dtype: t.dtype, device: t.device, buf: t.buf}
}

func checkDim(op, arg string, d, rank int, shape []int) error {
	if d < 0 || d >= rank {
		return opErr(op, arg, ErrArg, "%s is %d, expected a dimension in [0, %d) for shape %v", arg, d, rank, shape)
	}
	return nil
}

// Transpose returns a view with dimensions d0 and d1 swapped (no copy).
func (t *Tensor) Transpose(d0, d1 int) (*Tensor, error) {
	const op = "Transpose"
	if err := t.check(op, "tensor"); err != nil {
		return nil, err
	}
	if err := checkDim(op, "d0", d0, len(t.shape), t.shape); err != nil {
		return nil, err
	}
	if err := checkDim(op, "d1", d1, len(t.shape), t.shape); err != nil {
		return nil, err
	}
	shape, strides := slices.Clone(t.shape), slices.Clone(t.strides)
	shape[d0], shape[d1] = shape[d1], shape[d0]
	strides[d0], strides[d1] = strides[d1], strides[d0]
	v := t.view(shape, strides, t.offset)
	recordUnary(v, op, t, func(_ context.Context, g *Tensor) (*Tensor, error) { return g.Transpose(d0, d1) })
	return v, nil
}

// Narrow returns a view of elements start..start+length-1 along dim (no
// copy).
func (t *Tensor) Narrow(dim, start, length int) (*Tensor, error) {
	const op = "Narrow"
	if err := t.check(op, "tensor"); err != nil {
		return nil, err
	}
	if err := checkDim(op, "dim", dim, len(t.shape), t.shape); err != nil {
		return nil, err
	}
	size := t.shape[dim]
	if start < 0 || length < 0 || start > size-length {
		return nil, opErr(op, "length", ErrArg, "start %d and length %d are out of range for dimension %d of size %d", start, length, dim, size)
	}
	shape := slices.Clone(t.shape)
	shape[dim] = length
	v := t.view(shape, slices.Clone(t.strides), t.offset+start*t.strides[dim])
	recordUnary(v, op, t, func(ctx context.Context, g *Tensor) (*Tensor, error) { return narrowBackward(ctx, g, dim, start, size) })
	return v, nil
}

// Reshape returns a view of t with the given shape, sharing t's storage,
// whose elements in row-major order are t's; one dimension may be -1 and
// is then inferred. Like the other views (and like torch's Tensor.view) it
// never copies, so it takes no context: when t's strides allow no such
// view (a transposed tensor, say), it fails with ErrShape, and
// t.Contiguous(ctx) first gives a tensor that any shape of as many
// elements can view.
func (t *Tensor) Reshape(shape ...int) (*Tensor, error) {
	const op = "Reshape"
	if err := t.check(op, "tensor"); err != nil {
		return nil, err
	}
	shape, err := t.reshapeTo(op, shape)
	if err != nil {
		return nil, err
	}
	strides, ok := viewStrides(t.shape, t.strides, shape)
	if !ok {
		return nil, opErr(op, "shape", ErrShape, "tensor of shape %v and strides %v cannot be viewed as shape %v without a copy; call Contiguous(ctx) first",
			t.shape, t.strides, shape)
	}
	v := t.view(shape, strides, t.offset)
	oldShape := slices.Clone(t.shape)
	recordUnary(v, op, t, func(ctx context.Context, g *Tensor) (*Tensor, error) {
		// g has v's shape but maybe not its strides.
		if _, ok := viewStrides(g.shape, g.strides, oldShape); !ok {
			c, err := g.Contiguous(ctx)
			if err != nil {
				return nil, err
			}
			g = c
		}
		return g.Reshape(oldShape...)
	})
	return v, nil
}

// reshapeTo checks a shape for Reshape of t and returns it with -1
// inferred (a new slice).
func (t *Tensor) reshapeTo(op string, shape []int) ([]int, error) {
	shape = slices.Clone(shape)
	n := numel(t.shape)
	infer, known := -1, 1
	for i, d := range shape {
		switch {
		case d == -1 && infer < 0:
			infer = i
		case d < 0:
			return nil, opErr(op, "shape", ErrShape, "shape %v is invalid: only one dimension may be -1 and none may be negative", shape)
		default:
			known *= d
		}
	}
	if infer >= 0 {
		if known == 0 || n%known != 0 {
			return nil, opErr(op, "shape", ErrShape, "shape %v is invalid for input of shape %v (%d elements)", shape, t.shape, n)
		}
		shape[infer] = n / known
	}
	if _, err := checkShape(op, shape); err != nil {
		return nil, err
	}
	if numel(shape) != n {
		return nil, opErr(op, "shape", ErrShape, "shape %v is invalid for input of shape %v (%d elements)", shape, t.shape, n)
	}
	return shape, nil
}

// viewStrides returns strides that let a tensor with oldShape/oldStrides be
// viewed as newShape without copying (the algorithm of ATen's
// computeStride), or ok=false if no such strides exist.
func viewStrides(oldShape, oldStrides, newShape []int) ([]int, bool) {
	if len(oldShape) == 0 || numel(oldShape) == 0 {
		return contiguousStrides(newShape), true
	}
	newStrides := make([]int, len(newShape))
	viewD := len(newShape) - 1
	chunkBase := oldStrides[len(oldStrides)-1]
	tensorN, viewN := 1, 1
	for d := len(oldShape) - 1; d >= 0; d-- {
		tensorN *= oldShape[d]
		if d == 0 || (oldShape[d-1] != 1 && oldStrides[d-1] != tensorN*chunkBase) {
			for viewD >= 0 && (viewN < tensorN || newShape[viewD] == 1) {
				newStrides[viewD] = viewN * chunkBase
				viewN *= newShape[viewD]
				viewD--
			}
			if viewN != tensorN {
				return nil, false
			}
			if d > 0 {
				chunkBase = oldStrides[d-1]
				tensorN, viewN = 1, 1
			}
		}
	}
	return newStrides, viewD == -1
}
