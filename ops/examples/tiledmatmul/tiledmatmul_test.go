package tiledmatmul

import (
	"context"
	"errors"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

// spec is TiledMatMul for the op test kit: the kit's matrix product reference, shapes and
// tolerance (the CUDA kernel accumulates in the input dtype, the CPU kernel in float64).
var spec = optest.Spec{
	Name: "TiledMatMul",
	Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
		return TiledMatMul(ctx, in[0], in[1])
	},
	Ref:        optest.MatMul,
	Shapes:     optest.MatMulShapes,
	GradShapes: [][]int{{5, 3}, {3, 4}},
	DTypes:     []ops.DType{ops.Float32, ops.Float64},
	Tol:        optest.MatMulTolerance,
}

// TestTiledMatMul checks the op on every layout of its operands (the CUDA kernel reads them
// through their strides), its backward (ops.MatMul) and its errors, on the CPU and the GPU.
func TestTiledMatMul(t *testing.T) { optest.Run(t, spec) }

func TestTiledMatMulShapeError(t *testing.T) {
	a, err := ops.Zeros(ops.Float32, 2, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := TiledMatMul(context.Background(), a, a); !errors.Is(err, ops.ErrShape) {
		t.Fatalf("TiledMatMul([2 3], [2 3]) = %v, want ErrShape", err)
	}
}
