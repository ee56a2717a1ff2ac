package cuda_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// Int32 tensors go to the GPU and back, contiguous or not, and float ops
// refuse them there too.
func TestInt32OnGPU(t *testing.T) {
	requireGPU(t)
	ctx := context.Background()
	x := must(t)(ops.FromInt32([]int32{0, 1, 2, 3, -4, 1 << 30}, 2, 3))
	xd := must(t)(x.To(ctx, ops.CUDA(0)))
	if got, err := xd.Int32s(); err != nil || !slices.Equal(got, []int32{0, 1, 2, 3, -4, 1 << 30}) {
		t.Fatalf("Int32s of the GPU copy = %v, %v", got, err)
	}
	xt := must(t)(xd.Transpose(0, 1))
	c := must(t)(xt.Contiguous(ctx))
	if got, err := c.Int32s(); err != nil || !slices.Equal(got, []int32{0, 3, 1, -4, 2, 1 << 30}) {
		t.Fatalf("Contiguous of the transposed GPU tensor = %v, %v", got, err)
	}
	// A non-contiguous CPU view to the GPU.
	v := must(t)(must(t)(x.Transpose(0, 1)).To(ctx, ops.CUDA(0)))
	if got, err := v.Int32s(); err != nil || !slices.Equal(got, []int32{0, 3, 1, -4, 2, 1 << 30}) {
		t.Fatalf("the transposed CPU tensor on the GPU = %v, %v", got, err)
	}
	if _, err := ops.AddScalar(ctx, xd, 1); !errors.Is(err, ops.ErrDType) {
		t.Fatalf("AddScalar of an int32 GPU tensor: %v, want ErrDType", err)
	}
}
