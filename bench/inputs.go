package bench

// The inputs of the measured calls: views of the runner's buffers shaped for each op, and
// RandOn, which fills them.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/backward"
	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

// call is one call of an op, its outputs freed.
type call struct {
	run func() error
}

// prepare returns the call measuring op on views of r.x and r.y of the given
// shape.
func (r *runner) prepare(op string, shape []int) (call, error) {
	ctx := context.Background()
	n := numel(shape)
	view := func(t *ops.Tensor) (*ops.Tensor, error) {
		v, err := t.Narrow(0, 0, n)
		if err != nil {
			return nil, err
		}
		return v.Reshape(shape...)
	}
	x, err := view(r.x)
	if err != nil {
		return call{}, err
	}
	y, err := view(r.y)
	if err != nil {
		return call{}, err
	}
	one := func(f func() (*ops.Tensor, error)) call {
		return call{run: func() error {
			out, err := f()
			if err != nil {
				return err
			}
			return out.Free()
		}}
	}
	switch op {
	case OpCopy:
		return one(func() (*ops.Tensor, error) { return ops.Builtin.Contiguous.Call(ctx, []*ops.Tensor{x}, ops.Args{}) }), nil
	case OpAddScalar:
		return one(func() (*ops.Tensor, error) { return ops.AddScalar(ctx, x, AddScalarS) }), nil
	case OpAxpby:
		return one(func() (*ops.Tensor, error) { return ops.Axpby(ctx, AxpbyA, x, AxpbyB, y) }), nil
	case OpNorm:
		return one(func() (*ops.Tensor, error) { return ops.Norm(ctx, x) }), nil
	case OpPolynomial:
		return one(func() (*ops.Tensor, error) { return ops.Polynomial(ctx, x, PolyA, PolyB, PolyC, PolyD) }), nil
	case OpPolyFwdBwd:
		g := y
		return call{run: func() error {
			out, err := ops.Polynomial(ctx, x, PolyA, PolyB, PolyC, PolyD)
			if err != nil {
				return err
			}
			defer out.Free()
			dx, err := backward.Polynomial(ctx, g, x, PolyA, PolyB, PolyC)
			if err != nil {
				return err
			}
			return dx.Free()
		}}, nil
	case OpPolyAutograd:
		g := y
		xg := x.Detach()
		if err := xg.SetRequiresGrad(true); err != nil {
			return call{}, err
		}
		return call{
			run: func() error {
				out, err := ops.Polynomial(ctx, xg, PolyA, PolyB, PolyC, PolyD)
				if err != nil {
					return err
				}
				defer out.Free()
				if err := out.BackwardWithGrad(ctx, g); err != nil {
					return err
				}
				// Backward hands PolynomialBackward's output to xg as its
				// Grad (no copy, nothing left for the garbage collector).
				dx := xg.Grad()
				xg.ZeroGrad()
				return dx.Free()
			},
		}, nil
	case OpRowSoftmax:
		return one(func() (*ops.Tensor, error) { return ops.RowSoftmax(ctx, x) }), nil
	case OpMatMul:
		return one(func() (*ops.Tensor, error) { return ops.MatMul(ctx, x, y) }), nil
	}
	return call{}, fmt.Errorf("unknown op %q", op)
}

// RandOn returns a 1-D tensor of n uniform values in [0, 1] on dev (1 only
// where a 16-bit dtype rounds a draw just below 1 up to it), filled
// on the host by all CPUs (PCG streams per chunk of 2^20 elements, so the
// values depend only on seed, dtype and n) and copied to dev.
func RandOn(dev ops.Device, seed uint64, dt ops.DType, n int) (*ops.Tensor, error) {
	ctx := context.Background()
	h, err := ops.Zeros(dt, n)
	if err != nil {
		return nil, err
	}
	st := h.Storage().(*ops.CPUStorage)
	const chunk = 1 << 20
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for lo := 0; lo < n; lo += chunk {
		hi := min(lo+chunk, n)
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			rng := rand.New(rand.NewPCG(seed, uint64(lo/chunk)))
			switch dt {
			case ops.Float32:
				s := st.Float32()[lo:hi]
				for i := range s {
					s[i] = rng.Float32()
				}
			case ops.Float16:
				s := st.Float16()[lo:hi]
				for i := range s {
					s[i] = half.Float16From(rng.Float32())
				}
			case ops.BFloat16:
				s := st.BFloat16()[lo:hi]
				for i := range s {
					s[i] = half.BFloat16From(rng.Float32())
				}
			default:
				s := st.Float64()[lo:hi]
				for i := range s {
					s[i] = rng.Float64()
				}
			}
		}()
	}
	wg.Wait()
	if dev.Type == ops.DeviceCPU {
		return h, nil
	}
	d, err := h.To(ctx, dev)
	h.Free()
	return d, err
}
