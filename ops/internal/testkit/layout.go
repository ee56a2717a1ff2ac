package testkit

import (
	"fmt"
	"math"
	"slices"
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

// Viewer is what a view is taken with: package ops's *Tensor.
type Viewer[T any] interface {
	Narrow(dim, start, length int) (T, error)
	Reshape(shape ...int) (T, error)
	Transpose(d0, d1 int) (T, error)
}

// View returns a tensor whose logical (row-major) values are data and
// whose shape is shape, laid out as layout: a view of a contiguous base
// tensor that mk makes from its row-major values and shape. The base's
// elements outside the view are NaN, so a kernel that reads them fails its
// comparison.
func View[T Viewer[T]](data []float64, shape []int, layout Layout, mk func(base []float64, shape []int) (T, error)) (T, error) {
	base, baseShape, view, err := plan[T](data, shape, layout)
	if err != nil {
		var zero T
		return zero, err
	}
	b, err := mk(base, baseShape)
	if err != nil {
		return b, err
	}
	return view(b)
}

// plan returns the values and shape of View's base and the function that
// takes the view of it.
func plan[T Viewer[T]](data []float64, shape []int, layout Layout) (base []float64, baseShape []int, view func(T) (T, error), err error) {
	n, r := len(data), len(shape)
	if want := numel(shape); want != n {
		return nil, nil, nil, fmt.Errorf("testkit: %d values for shape %v", n, shape)
	}
	nan := math.NaN()
	switch layout {
	case Contiguous:
		return data, shape, func(t T) (T, error) { return t, nil }, nil
	case Offset:
		return append([]float64{nan, nan, nan}, data...), []int{n + 3}, func(t T) (T, error) {
			v, err := t.Narrow(0, 3, n)
			if err != nil {
				return v, err
			}
			return v.Reshape(shape...)
		}, nil
	case Strided:
		big := make([]float64, 2*n)
		for i, v := range data {
			big[2*i], big[2*i+1] = v, nan
		}
		return big, []int{n, 2}, func(t T) (T, error) {
			v, err := t.Narrow(1, 0, 1)
			if err != nil {
				return v, err
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
		return td, ts, func(t T) (T, error) { return t.Transpose(r-2, r-1) }, nil
	case Narrowed:
		if r < 2 {
			break
		}
		q, rows := shape[r-1], numel(shape[:r-1])
		big := make([]float64, rows*(q+3))
		for i := range big {
			big[i] = nan
		}
		for i := range rows {
			copy(big[i*(q+3)+1:], data[i*q:(i+1)*q])
		}
		bs := slices.Clone(shape)
		bs[r-1] = q + 3
		return big, bs, func(t T) (T, error) { return t.Narrow(r-1, 1, q) }, nil
	}
	return nil, nil, nil, fmt.Errorf("testkit: layout %q is not one of %v for shape %v", layout, Layouts(shape), shape)
}

func numel(shape []int) int {
	n := 1
	for _, s := range shape {
		n *= s
	}
	return n
}
