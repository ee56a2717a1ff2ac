package ops

import (
	"slices"
)

// Views share storage with their base: Transpose, Narrow, Reshape (a view when the strides allow).

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
	recordUnary(v, op, t, func(g *Tensor) (*Tensor, error) { return g.Transpose(d0, d1) })
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
	recordUnary(v, op, t, func(g *Tensor) (*Tensor, error) { return narrowBackward(g, dim, start, size) })
	return v, nil
}

// Reshape returns a tensor with the same elements in row-major order and
// the given shape; one dimension may be -1 and is then inferred. Like
// torch.reshape, it returns a view sharing t's storage when the strides
// allow it (always for contiguous t) and otherwise a contiguous copy;
// compare Storage() values if the difference matters.
func (t *Tensor) Reshape(shape ...int) (*Tensor, error) {
	const op = "Reshape"
	if err := t.check(op, "tensor"); err != nil {
		return nil, err
	}
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
	src := t
	strides, ok := viewStrides(t.shape, t.strides, shape)
	if !ok {
		c, err := t.Contiguous()
		if err != nil {
			return nil, err
		}
		src, strides = c, contiguousStrides(shape)
	}
	v := src.view(shape, strides, src.offset)
	oldShape := slices.Clone(t.shape)
	recordUnary(v, op, src, func(g *Tensor) (*Tensor, error) { return g.Reshape(oldShape...) })
	return v, nil
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
