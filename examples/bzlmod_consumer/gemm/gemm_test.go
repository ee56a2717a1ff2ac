package gemm

import (
	"context"
	"errors"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

// spec is Gemm for the op test kit (rules_cuda_go's ops/optest): the kit's matrix product
// reference, shapes and tolerance (for kernels that accumulate in the input dtype with plain FMA
// arithmetic: cuBLAS's default math mode, no TF32), float32 and float64.
var spec = optest.Spec{
	Name:       "Gemm",
	Call:       func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return Gemm(ctx, in[0], in[1]) },
	Ref:        optest.MatMul,
	Shapes:     optest.MatMulShapes,
	GradShapes: [][]int{{5, 3}, {3, 4}},
	DTypes:     []ops.DType{ops.Float32, ops.Float64},
	Tol:        optest.MatMulTolerance,
}

// TestGemm checks Gemm against the reference on every layout of its operands (the kernels get
// them contiguous through ops.ContiguousInputs), its gradient, its errors, and the same on the GPU
// (cuBLAS), on the default stream and on one of its own.
func TestGemm(t *testing.T) { optest.Run(t, spec) }

// TestGemmShapes checks what is the op's own: its operands' shapes.
func TestGemmShapes(t *testing.T) {
	ctx := context.Background()
	a, _ := ops.Zeros(ops.Float32, 2, 3)
	b, _ := ops.Zeros(ops.Float32, 4, 2)
	if _, err := Gemm(ctx, a, b); !errors.Is(err, ops.ErrShape) {
		t.Errorf("Gemm([2 3], [4 2]) = %v, want ErrShape", err)
	}
	v, _ := ops.Zeros(ops.Float32, 3)
	if _, err := Gemm(ctx, a, v); !errors.Is(err, ops.ErrShape) {
		t.Errorf("Gemm([2 3], [3]) = %v, want ErrShape", err)
	}
}

func BenchmarkGemm(b *testing.B) { optest.Benchmark(b, spec, []int{512, 512}, []int{512, 512}) }
