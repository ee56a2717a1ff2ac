package tiledmatmul

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// operand returns a [r, c] tensor of dtype on d with values in [-0.5, 0.5), laid out as kind says:
// "contiguous", "transposed" (a transposed view of a [c, r] tensor) or "narrowed" (columns 1..c
// of a [r, c+3] tensor).
func operand(t *testing.T, seed uint64, dtype ops.DType, d ops.Device, r, c int, kind string) *ops.Tensor {
	t.Helper()
	shape := []int{r, c}
	switch kind {
	case "transposed":
		shape = []int{c, r}
	case "narrowed":
		shape = []int{r, c + 3}
	}
	x, err := ops.Rand(seed, dtype, shape...)
	if err == nil {
		x, err = ops.AddScalar(x, -0.5)
	}
	if err == nil {
		x, err = x.To(d)
	}
	if err == nil {
		switch kind {
		case "transposed":
			x, err = x.Transpose(0, 1)
		case "narrowed":
			x, err = x.Narrow(1, 1, c)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// check compares TiledMatMul(a, b) with a float64 reference computed from the same values: the
// kernel accumulates in the input dtype, so |error| <= 2*K*u*sum_k |a_ik*b_kj| with u the unit
// roundoff (2^-24 float32, 2^-53 float64), whatever the order of the sum.
func check(t *testing.T, what string, a, b *ops.Tensor) {
	t.Helper()
	c, err := TiledMatMul(a, b)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	M, K, N := a.Shape()[0], a.Shape()[1], b.Shape()[1]
	if s := c.Shape(); s[0] != M || s[1] != N || !c.IsContiguous() || c.Device() != a.Device() {
		t.Fatalf("%s: result %v, want contiguous [%d %d] on %v", what, c, M, N, a.Device())
	}
	got, err := c.Float64s()
	if err != nil {
		t.Fatal(err)
	}
	av, _ := a.Float64s()
	bv, _ := b.Float64s()
	u := 0x1p-24
	if a.DType() == ops.Float64 {
		u = 0x1p-53
	}
	for i := range M {
		for j := range N {
			var s, abs float64
			for k := range K {
				s += av[i*K+k] * bv[k*N+j]
				abs += math.Abs(av[i*K+k] * bv[k*N+j])
			}
			if d := math.Abs(got[i*N+j] - s); !(d <= 2*float64(K)*u*abs) {
				t.Fatalf("%s: c[%d,%d] = %.17g, want %.17g (|diff| %.3g > %.3g)", what, i, j, got[i*N+j], s, d, 2*float64(K)*u*abs)
			}
		}
	}
}

var sizes = [][3]int{{0, 4, 5}, {4, 0, 5}, {4, 5, 0}, {1, 1, 1}, {3, 5, 7}, {127, 129, 65}, {130, 17, 257}}

func run(t *testing.T, d ops.Device) {
	for _, dtype := range []ops.DType{ops.Float32, ops.Float64} {
		for si, sz := range sizes {
			M, K, N := sz[0], sz[1], sz[2]
			for _, ka := range []string{"contiguous", "transposed", "narrowed"} {
				for _, kb := range []string{"contiguous", "transposed", "narrowed"} {
					a := operand(t, uint64(2*si+1), dtype, d, M, K, ka)
					b := operand(t, uint64(2*si+2), dtype, d, K, N, kb)
					check(t, fmt.Sprintf("%v %v [%d %d]x[%d %d] a %s b %s", d, dtype, M, K, K, N, ka, kb), a, b)
				}
			}
		}
	}
}

func TestTiledMatMulCPU(t *testing.T) { run(t, ops.CPU) }

func TestTiledMatMulCUDA(t *testing.T) {
	if ok, err := cuda.Available(); !ok {
		t.Skipf("skipping the GPU test: no usable CUDA device (%v)", err)
	}
	run(t, ops.CUDA(0))
}

// The backward runs ops.MatMul (cuBLAS on a GPU); GradCheck compares it with central differences.
func TestTiledMatMulGrad(t *testing.T) {
	devs := []ops.Device{ops.CPU}
	if ok, _ := cuda.Available(); ok {
		devs = append(devs, ops.CUDA(0))
	}
	for _, d := range devs {
		a := operand(t, 7, ops.Float64, d, 5, 3, "contiguous")
		b := operand(t, 8, ops.Float64, d, 4, 3, "contiguous")
		for _, x := range []*ops.Tensor{a, b} {
			if err := x.SetRequiresGrad(true); err != nil {
				t.Fatal(err)
			}
		}
		fn := func(in []*ops.Tensor) (*ops.Tensor, error) {
			bt, err := in[1].Transpose(0, 1) // a transposed view reaches the kernel
			if err != nil {
				return nil, err
			}
			return TiledMatMul(in[0], bt)
		}
		if err := ops.GradCheck(fn, []*ops.Tensor{a, b}, ops.GradCheckOptions{}); err != nil {
			t.Fatalf("%v: %v", d, err)
		}
	}
}

func TestTiledMatMulErrors(t *testing.T) {
	a := operand(t, 1, ops.Float32, ops.CPU, 2, 3, "contiguous")
	if _, err := TiledMatMul(a, a); !errors.Is(err, ops.ErrShape) {
		t.Fatalf("TiledMatMul([2 3], [2 3]) = %v, want ErrShape", err)
	}
}
