package cuda_test

import (
	"context"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

// TestGradCheckOnGPU runs ops.GradCheck with float64 CUDA inputs for every
// differentiable op, so the forward kernels and the backward kernels
// (Scale, PolynomialBackward, NormBackward, RowSoftmaxBackward, MatMul on
// transposed views, NarrowBackward, Contiguous, Axpby for accumulation) run
// on the GPU.
func TestGradCheckOnGPU(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	m := must(t)
	leaf := func(seed uint64, shape ...int) *ops.Tensor {
		x := m(fromData(t, ops.Float64, randData(seed, numel(shape), -1, 1), shape...).To(ctx, dev))
		if err := x.SetRequiresGrad(true); err != nil {
			t.Fatal(err)
		}
		return x
	}
	cases := []struct {
		name   string
		inputs []*ops.Tensor
		fn     func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error)
	}{
		{"AddScalar", []*ops.Tensor{leaf(1, 3, 4)}, func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			return ops.AddScalar(ctx, in[0], 0.5)
		}},
		{"Axpby", []*ops.Tensor{leaf(2, 3, 4), leaf(3, 3, 4)}, func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			return ops.Axpby(ctx, 2, in[0], -3, in[1])
		}},
		{"Polynomial", []*ops.Tensor{leaf(4, 3, 4)}, func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			return ops.Polynomial(ctx, in[0], 0.5, -1, 2, 0.25)
		}},
		{"Norm", []*ops.Tensor{leaf(5, 3, 4)}, func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return ops.Norm(ctx, in[0]) }},
		{"RowSoftmax", []*ops.Tensor{leaf(6, 3, 5)}, func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return ops.RowSoftmax(ctx, in[0]) }},
		{"RowSoftmax(transposed)", []*ops.Tensor{leaf(7, 5, 3)}, func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			xt, err := in[0].Transpose(0, 1)
			if err != nil {
				return nil, err
			}
			return ops.RowSoftmax(ctx, xt)
		}},
		{"MatMul", []*ops.Tensor{leaf(8, 3, 4), leaf(9, 4, 2)}, func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return ops.MatMul(ctx, in[0], in[1]) }},
		{"Narrow+Transpose+Contiguous", []*ops.Tensor{leaf(10, 4, 5)}, func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			v, err := in[0].Narrow(1, 1, 3)
			if err != nil {
				return nil, err
			}
			if v, err = v.Transpose(0, 1); err != nil {
				return nil, err
			}
			return v.Contiguous(ctx)
		}},
		{"chain", []*ops.Tensor{leaf(11, 4, 6), leaf(12, 6, 3)}, func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			// ‖softmax(poly(x)) · w‖, x used twice (gradients accumulate).
			p, err := ops.Polynomial(ctx, in[0], 0.1, 0.2, 1, 0)
			if err != nil {
				return nil, err
			}
			if p, err = ops.Axpby(ctx, 1, p, 0.5, in[0]); err != nil {
				return nil, err
			}
			s, err := ops.RowSoftmax(ctx, p)
			if err != nil {
				return nil, err
			}
			mm, err := ops.MatMul(ctx, s, in[1])
			if err != nil {
				return nil, err
			}
			return ops.Norm(ctx, mm)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := ops.GradCheck(ctx, c.fn, c.inputs, ops.GradCheckOptions{}); err != nil {
				t.Fatal(err)
			}
			// The result and the gradients stay on the GPU.
			out := m(c.fn(ctx, c.inputs))
			if out.Device() != dev {
				t.Fatalf("result on %v", out.Device())
			}
		})
	}

	// Backward leaves the gradients on the GPU and equal to the CPU ones.
	x := leaf(13, 4, 6)
	xc := m(x.Detach().To(ctx, ops.CPU))
	if err := xc.SetRequiresGrad(true); err != nil {
		t.Fatal(err)
	}
	for _, in := range []*ops.Tensor{x, xc} {
		s := m(ops.RowSoftmax(ctx, m(ops.Polynomial(ctx, in, 0.3, 0, 1, 0))))
		if err := m(ops.Norm(ctx, s)).Backward(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if g := x.Grad(); g == nil || g.Device() != dev {
		t.Fatalf("gradient of a CUDA leaf: %v", g)
	}
	rtol, atol := optest.Tolerance(ops.Float64)
	compare(t, "gradient on GPU vs CPU", values(t, x.Grad()), values(t, xc.Grad()), rtol, atol)
}
