package optest

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// Layout is how a tensor's elements are laid out in its storage.
type Layout string

// The layouts an op's inputs are checked in.
const (
	Contiguous Layout = "contiguous" // row-major, offset 0
	Offset     Layout = "offset"     // row-major, after 3 unused elements
	Strided    Layout = "strided"    // every other element of the storage
	Transposed Layout = "transposed" // the last two dimensions swapped in storage (rank >= 2)
	Narrowed   Layout = "narrowed"   // rows of the last dimension inside longer rows (rank >= 2)
)

// Layouts returns the layouts a tensor of shape can have: all five for a
// rank of 2 or more, the first three below.
func Layouts(shape []int) []Layout {
	l := []Layout{Contiguous, Offset, Strided}
	if len(shape) >= 2 {
		l = append(l, Transposed, Narrowed)
	}
	return l
}

// View returns a tensor of dtype on dev whose logical (row-major) values
// are data (rounded to dtype) and whose shape is shape, laid out as layout:
// a view of a larger contiguous tensor made on dev, whose elements outside
// the view are NaN. Copies to dev are made with ctx.
func View(ctx context.Context, dtype ops.DType, data []float64, shape []int, layout Layout, dev ops.Device) (*ops.Tensor, error) {
	n := 1
	for _, s := range shape {
		n *= s
	}
	if n != len(data) {
		return nil, fmt.Errorf("optest: View: %d values for shape %v", len(data), shape)
	}
	base, baseShape, view, err := layoutOf(data, shape, layout)
	if err != nil {
		return nil, err
	}
	b, err := ops.FromFloat64(base, baseShape...)
	if err != nil {
		return nil, err
	}
	if b, err = b.AsType(ctx, dtype); err != nil {
		return nil, err
	}
	if b, err = b.To(ctx, dev); err != nil {
		return nil, err
	}
	return view(b)
}

// layoutOf returns the base storage's values and shape for a view of data
// with shape and layout, and the function that makes the view of the base.
func layoutOf(data []float64, shape []int, layout Layout) ([]float64, []int, func(*ops.Tensor) (*ops.Tensor, error), error) {
	n, r := len(data), len(shape)
	nan := math.NaN()
	switch layout {
	case Contiguous:
		return data, shape, func(t *ops.Tensor) (*ops.Tensor, error) { return t, nil }, nil
	case Offset:
		return append([]float64{nan, nan, nan}, data...), []int{n + 3}, func(t *ops.Tensor) (*ops.Tensor, error) {
			v, err := t.Narrow(0, 3, n)
			if err != nil {
				return nil, err
			}
			return v.Reshape(shape...)
		}, nil
	case Strided:
		big := make([]float64, 2*n)
		for i, v := range data {
			big[2*i], big[2*i+1] = v, nan
		}
		return big, []int{n, 2}, func(t *ops.Tensor) (*ops.Tensor, error) {
			v, err := t.Narrow(1, 0, 1)
			if err != nil {
				return nil, err
			}
			return v.Reshape(shape...)
		}, nil
	case Transposed:
		if r < 2 {
			break
		}
		p, q := shape[r-2], shape[r-1]
		td := make([]float64, n)
		if p*q > 0 {
			for o := range n / (p * q) {
				for i := range p {
					for j := range q {
						td[o*p*q+j*p+i] = data[o*p*q+i*q+j]
					}
				}
			}
		}
		ts := slices.Clone(shape)
		ts[r-2], ts[r-1] = q, p
		return td, ts, func(t *ops.Tensor) (*ops.Tensor, error) { return t.Transpose(r-2, r-1) }, nil
	case Narrowed:
		if r < 2 {
			break
		}
		q, rows := shape[r-1], 1
		for _, s := range shape[:r-1] {
			rows *= s
		}
		big := make([]float64, rows*(q+3))
		for i := range big {
			big[i] = nan
		}
		for i := range rows {
			copy(big[i*(q+3)+1:], data[i*q:(i+1)*q])
		}
		bs := slices.Clone(shape)
		bs[r-1] = q + 3
		return big, bs, func(t *ops.Tensor) (*ops.Tensor, error) { return t.Narrow(r-1, 1, q) }, nil
	}
	return nil, nil, nil, fmt.Errorf("optest: layout %q is not one of %v for shape %v", layout, Layouts(shape), shape)
}
