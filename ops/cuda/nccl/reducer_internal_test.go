package nccl

import (
	"reflect"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// TestPlan: parameters go to buckets in reverse order, one dtype per
// bucket, each closed once it holds at least the cap (the last bucket of a
// dtype holds what is left).
func TestPlan(t *testing.T) {
	f32, f64 := ops.Float32, ops.Float64
	for _, tc := range []struct {
		name   string
		dtypes []ops.DType
		numels []int
		cap    int
		want   [][]int
	}{
		{"one bucket", []ops.DType{f32, f32, f32}, []int{1, 2, 3}, 1 << 20, [][]int{{2, 1, 0}}},
		{"exact fill", []ops.DType{f32, f32, f32, f32}, []int{4, 4, 4, 4}, 32, [][]int{{3, 2}, {1, 0}}},
		{"not divisible", []ops.DType{f32, f32, f32}, []int{4, 4, 4}, 32, [][]int{{2, 1}, {0}}},
		{"large parameter", []ops.DType{f32, f32, f32}, []int{1, 100, 1}, 16, [][]int{{2, 1}, {0}}},
		{"dtypes apart", []ops.DType{f32, f64, f32, f64}, []int{2, 2, 2, 2}, 1 << 20, [][]int{{3, 1}, {2, 0}}},
		{"dtypes, small cap", []ops.DType{f64, f32, f64}, []int{1, 1, 1}, 8, [][]int{{2}, {1}, {0}}},
	} {
		if got := plan(tc.dtypes, tc.numels, tc.cap); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: plan = %v, want %v", tc.name, got, tc.want)
		}
	}
}
