package fusetest

import (
	"context"
	"errors"
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse"
	"github.com/rules-cuda-go/rules_cuda_go/ops/internal/testkit"
)

// MultiCase is a chain with several outputs over broadcast inputs, and the
// losses to differentiate it through: each uses some of its outputs (an
// output listed twice is used twice).
type MultiCase struct {
	Name    string
	Chain   *fuse.Chain
	Shapes  [][]int
	Layouts []testkit.Layout
	Uses    [][]int
}

// MultiCases are chains of two and three outputs (the third the same Expr
// as the first) over inputs [3 1], [4] and [2 3 4] (transposed).
func MultiCases() []MultiCase {
	x, y, z := fuse.In(0), fuse.In(1), fuse.In(2)
	shapes := [][]int{{3, 1}, {4}, {2, 3, 4}}
	layouts := []testkit.Layout{testkit.Contiguous, testkit.Strided, testkit.Transposed}
	a := x.Mul(y)
	return []MultiCase{
		{Name: "outputs2_grad", Chain: fuse.MustNew("outputs2_grad", []fuse.Expr{
			fuse.Tanh(a).Add(z), fuse.Exp(x.MulScalar(0.5)).Mul(z).Sub(y),
		}, fuse.Options{}), Shapes: shapes, Layouts: layouts, Uses: [][]int{{0, 1}, {0}, {1}, {1, 1, 0}}},
		{Name: "outputs3_grad", Chain: fuse.MustNew("outputs3_grad", []fuse.Expr{
			a, fuse.Sigmoid(x.Add(z)).Mul(y), a,
		}, fuse.Options{}), Shapes: shapes, Layouts: layouts, Uses: [][]int{{0, 1, 2}, {0, 2}, {1, 2}, {2}, {1}}},
	}
}

// MultiLoss calls the chain on in and returns the sum over use of
// (k+1)·Norm(0.5o² + o) for each output o = outs[k].
func MultiLoss(ctx context.Context, c MultiCase, in []*ops.Tensor, use []int) (*ops.Tensor, error) {
	outs, err := c.Chain.Call(ctx, in)
	if err != nil {
		return nil, err
	}
	var loss *ops.Tensor
	for _, k := range use {
		p, err := ops.Polynomial(ctx, outs[k], 0, 0.5, 1, 0)
		if err != nil {
			return nil, err
		}
		n, err := ops.Norm(ctx, p)
		if err != nil {
			return nil, err
		}
		if loss == nil {
			loss, err = ops.Scale(ctx, n, float64(k+1))
		} else {
			loss, err = ops.Axpby(ctx, 1, loss, float64(k+1), n)
		}
		if err != nil {
			return nil, err
		}
	}
	return loss, nil
}

// MultiInputs returns the case's inputs on dev in dtype, requiring grad.
func MultiInputs(ctx context.Context, c MultiCase, dtype ops.DType, dev ops.Device) ([]*ops.Tensor, error) {
	in := make([]*ops.Tensor, len(c.Shapes))
	for j, sh := range c.Shapes {
		t, _, err := Input(ctx, randData(uint64(j+21), numel(sh), -1, 1), sh, dtype, c.Layouts[j], dev)
		if err != nil {
			return nil, err
		}
		if err := t.SetRequiresGrad(true); err != nil {
			return nil, err
		}
		in[j] = t
	}
	return in, nil
}

// MultiGrads returns the gradients of MultiLoss(use) with respect to each
// input, computed by Backward in dtype on dev (zeros for an input the
// outputs used do not depend on, which gets no Grad).
func MultiGrads(ctx context.Context, c MultiCase, use []int, dtype ops.DType, dev ops.Device) ([][]float64, error) {
	in, err := MultiInputs(ctx, c, dtype, dev)
	if err != nil {
		return nil, err
	}
	loss, err := MultiLoss(ctx, c, in, use)
	if err != nil {
		return nil, err
	}
	if err := loss.Backward(ctx); err != nil {
		return nil, err
	}
	gs := make([][]float64, len(in))
	for j, t := range in {
		g := t.Grad()
		if g == nil {
			gs[j] = make([]float64, t.Numel())
			continue
		}
		if gs[j], err = g.Float64s(); err != nil {
			return nil, err
		}
	}
	return gs, nil
}

// CompareGrads compares gradients per input within tol (relative to the
// largest magnitude of each input's gradient, as sums over broadcast
// dimensions cancel).
func CompareGrads(got, want [][]float64, tol float64) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d gradients, want %d", len(got), len(want))
	}
	var errs []error
	for j := range want {
		scale := 1.0
		for _, w := range want[j] {
			scale = max(scale, abs(w))
		}
		if err := compare(got[j], want[j], tol*scale); err != nil {
			errs = append(errs, fmt.Errorf("gradient of input %d: %w", j, err))
		}
	}
	return errors.Join(errs...)
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// CheckGradMultiOutput runs ops.GradCheck through each MultiCase's losses
// in float64 on dev, and checks that the float32 gradients are the float64
// ones within 1e-4.
func CheckGradMultiOutput(ctx context.Context, dev ops.Device) error {
	var errs []error
	for _, c := range MultiCases() {
		for _, use := range c.Uses {
			in, err := MultiInputs(ctx, c, ops.Float64, dev)
			if err != nil {
				return err
			}
			fn := func(ctx context.Context, x []*ops.Tensor) (*ops.Tensor, error) { return MultiLoss(ctx, c, x, use) }
			if err := ops.GradCheck(ctx, fn, in, ops.GradCheckOptions{}); err != nil {
				errs = append(errs, fmt.Errorf("%s using outputs %v on %v: %w", c.Name, use, dev, err))
				continue
			}
			want, err := MultiGrads(ctx, c, use, ops.Float64, dev)
			if err != nil {
				return fmt.Errorf("%s using outputs %v on %v: %w", c.Name, use, dev, err)
			}
			got, err := MultiGrads(ctx, c, use, ops.Float32, dev)
			if err != nil {
				return fmt.Errorf("%s using outputs %v on %v in float32: %w", c.Name, use, dev, err)
			}
			if err := CompareGrads(got, want, 1e-4); err != nil {
				errs = append(errs, fmt.Errorf("%s using outputs %v on %v, float32 against float64: %w", c.Name, use, dev, err))
			}
		}
	}
	return errors.Join(errs...)
}
