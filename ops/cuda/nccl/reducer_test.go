package nccl_test

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/nccl"
)

// model is one rank's parameters and loss for TestReducer: float32
// weights W1 [5, 7], W2 [7, 3] and U [4], and float64 V [6]; U is used on
// rank 0 only, Z [3] by no rank; the data depend on the rank.
type model struct {
	w1, w2, u, z, v *ops.Tensor
}

func (m *model) params() []*ops.Tensor { return []*ops.Tensor{m.w1, m.w2, m.u, m.z, m.v} }

func newModel(ctx context.Context, dev ops.Device) (*model, error) {
	mk := func(seed uint64, dt ops.DType, shape ...int) (*ops.Tensor, error) {
		x, err := ops.Rand(seed, dt, shape...)
		if err != nil {
			return nil, err
		}
		if x, err = x.To(ctx, dev); err != nil {
			return nil, err
		}
		return x, x.SetRequiresGrad(true)
	}
	var m model
	var err error
	for _, p := range []struct {
		t     **ops.Tensor
		seed  uint64
		dt    ops.DType
		shape []int
	}{{&m.w1, 1, ops.Float32, []int{5, 7}}, {&m.w2, 2, ops.Float32, []int{7, 3}}, {&m.u, 3, ops.Float32, []int{4}},
		{&m.z, 4, ops.Float32, []int{3}}, {&m.v, 5, ops.Float64, []int{6}}} {
		if *p.t, err = mk(p.seed, p.dt, p.shape...); err != nil {
			return nil, err
		}
	}
	return &m, nil
}

// backward runs rank r's two losses backward: ||x_r W1 W2|| (+ ||U|| on
// rank 0) and ||(r+1) V||.
func (m *model) backward(ctx context.Context, r int) error {
	x, err := ops.Rand(uint64(100+r), ops.Float32, 4, 5)
	if err != nil {
		return err
	}
	if x, err = x.To(ctx, m.w1.Device()); err != nil {
		return err
	}
	h, err := ops.MatMul(ctx, x, m.w1)
	if err != nil {
		return err
	}
	if h, err = ops.MatMul(ctx, h, m.w2); err != nil {
		return err
	}
	l32, err := ops.Norm(ctx, h)
	if err != nil {
		return err
	}
	if r == 0 {
		nu, err := ops.Norm(ctx, m.u)
		if err != nil {
			return err
		}
		if l32, err = ops.Axpby(ctx, 1, l32, 1, nu); err != nil {
			return err
		}
	}
	if err := l32.Backward(ctx); err != nil {
		return err
	}
	sv, err := ops.Scale(ctx, m.v, float64(r+1))
	if err != nil {
		return err
	}
	l64, err := ops.Norm(ctx, sv)
	if err != nil {
		return err
	}
	return l64.Backward(ctx)
}

// TestReducer: gradients all-reduced in buckets during backward equal the
// average over the ranks of each rank's own gradients (computed without a
// Reducer, averaged on the host), for buckets of one parameter or less, a
// few parameters with a last bucket not full, and the default 25 MiB; a
// parameter unused on some ranks gets their zeros, one unused everywhere
// gets a zero gradient; three steps in a row.
func TestReducer(t *testing.T) {
	requireNCCL(t, 1)
	n := gpus(t)
	comms := newComms(t, n)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// The reference: each rank's gradients alone, averaged.
	sum := make([][]float64, 5)
	models := make([]*model, n)
	each(t, comms, func(c *nccl.Comm) error {
		m, err := newModel(ctx, c.Device())
		if err != nil {
			return err
		}
		models[c.Rank()] = m
		return m.backward(ctx, c.Rank())
	})
	for _, m := range models {
		for i, p := range m.params() {
			if sum[i] == nil {
				sum[i] = make([]float64, p.Numel())
			}
			if g := p.Grad(); g != nil {
				v, err := g.Float64s()
				if err != nil {
					t.Fatal(err)
				}
				for k := range v {
					sum[i][k] += v[k] / float64(n)
				}
			}
		}
	}
	for _, bucketBytes := range []int{16, 100, 0} {
		t.Run(fmt.Sprintf("bucket %d B", bucketBytes), func(t *testing.T) {
			each(t, comms, func(c *nccl.Comm) error {
				m := models[c.Rank()]
				red, err := nccl.NewReducer(ctx, c, m.params(), nccl.ReducerOptions{BucketBytes: bucketBytes})
				if err != nil {
					return err
				}
				defer red.Close()
				if c.Rank() == 0 {
					t.Logf("%d buckets", red.Buckets())
				}
				for step := 0; step < 3; step++ {
					for _, p := range m.params() {
						p.ZeroGrad()
					}
					if err := m.backward(ctx, c.Rank()); err != nil {
						return err
					}
					if err := red.Wait(ctx); err != nil {
						return err
					}
					grads := make([]*ops.Tensor, 0, 5)
					for _, p := range m.params() {
						grads = append(grads, p.Grad())
					}
					// A functional optimizer step that changes nothing: new
					// parameter tensors (W + 0·g), handed to the reducer.
					for _, pp := range []**ops.Tensor{&m.w1, &m.w2, &m.u, &m.z, &m.v} {
						np, err := ops.Axpby(ctx, 1, (*pp).Detach(), 0, (*pp).Grad())
						if err != nil {
							return err
						}
						if err := np.SetRequiresGrad(true); err != nil {
							return err
						}
						*pp = np
					}
					if err := red.SetParams(m.params()); err != nil {
						return err
					}
					for i, p := range grads {
						got, err := p.Float64s()
						if err != nil {
							return err
						}
						for k := range got {
							if d := math.Abs(got[k] - sum[i][k]); d > 1e-5*(1+math.Abs(sum[i][k])) {
								return fmt.Errorf("rank %d step %d: parameter %d element %d = %v, want %v", c.Rank(), step, i, k, got[k], sum[i][k])
							}
						}
					}
				}
				return nil
			})
		})
	}
}
