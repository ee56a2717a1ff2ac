package dims

import (
	"reflect"
	"testing"
)

func TestMerge(t *testing.T) {
	for _, c := range []struct {
		name    string
		shape   []int
		strides [][]int
		sizes   []int
		merged  [][]int
	}{
		{"contiguous", []int{2, 3, 4}, [][]int{{12, 4, 1}}, []int{24}, [][]int{{1}}},
		{"ones dropped", []int{1, 3, 1, 4}, [][]int{{99, 4, 7, 1}}, []int{12}, [][]int{{1}}},
		{"all ones", []int{1, 1}, [][]int{{1, 1}}, nil, [][]int{nil}},
		{"empty shape", nil, [][]int{{}}, nil, [][]int{nil}},
		{"transposed", []int{3, 4}, [][]int{{1, 3}}, []int{3, 4}, [][]int{{1, 3}}},
		{"narrowed rows", []int{2, 3, 4}, [][]int{{15, 5, 1}}, []int{6, 4}, [][]int{{5, 1}}},
		{"one operand blocks", []int{2, 3}, [][]int{{3, 1}, {1, 2}}, []int{2, 3}, [][]int{{3, 1}, {1, 2}}},
		{"two contiguous", []int{2, 3}, [][]int{{3, 1}, {3, 1}}, []int{6}, [][]int{{1}, {1}}},
		{"broadcast zero stride", []int{4, 5}, [][]int{{0, 0}, {5, 1}}, []int{20}, [][]int{{0}, {1}}},
	} {
		sizes, merged := Merge(c.shape, c.strides...)
		if !reflect.DeepEqual(sizes, c.sizes) || !reflect.DeepEqual(merged, c.merged) {
			t.Errorf("%s: Merge(%v, %v) = %v, %v; want %v, %v", c.name, c.shape, c.strides, sizes, merged, c.sizes, c.merged)
		}
	}
}

func TestAtLeast1(t *testing.T) {
	sizes, merged := AtLeast1([]int{1, 1}, []int{5, 1}, []int{1, 1})
	if !reflect.DeepEqual(sizes, []int{1}) || !reflect.DeepEqual(merged, [][]int{{1}, {1}}) {
		t.Errorf("AtLeast1 of a one-element shape = %v, %v; want [1], [[1] [1]]", sizes, merged)
	}
	sizes, merged = AtLeast1([]int{2, 3}, []int{3, 1})
	if !reflect.DeepEqual(sizes, []int{6}) || !reflect.DeepEqual(merged, [][]int{{1}}) {
		t.Errorf("AtLeast1 of a contiguous shape = %v, %v; want [6], [[1]]", sizes, merged)
	}
}
