package ops

import (
	"context"
	"fmt"
	"math"
	"sync"
	"testing"
)

// TestConcurrentOps runs ops, views, device copies and Backward on shared
// inputs from 16 goroutines at once (run with -race). Backward calls reach
// the same leaves, so their gradients must add up.
func TestConcurrentOps(t *testing.T) {
	ctx := context.Background()
	const G = 16
	m := must(t)
	xd := randData(80, 32*48, -1, 1)
	wd := randData(81, 48*16, -1, 1)
	big := fromData(t, Float32, randData(82, 1<<17+1, -1, 1))
	bigT := m(m(big.Narrow(0, 1, 1<<17)).Reshape(256, 512))
	bigT = m(bigT.Transpose(0, 1)) // non-contiguous, large enough for parallel kernels

	loss := func(x, w *Tensor) (*Tensor, error) {
		p, err := Polynomial(ctx, x, 0.1, 0.2, 1, 0)
		if err != nil {
			return nil, err
		}
		s, err := RowSoftmax(ctx, p)
		if err != nil {
			return nil, err
		}
		mm, err := MatMul(ctx, s, w)
		if err != nil {
			return nil, err
		}
		return Norm(ctx, mm)
	}
	leafOf := func(d []float64, shape ...int) *Tensor {
		l := fromData(t, Float64, d, shape...)
		l.SetRequiresGrad(true)
		return l
	}
	// Serial reference.
	x1, w1 := leafOf(xd, 32, 48), leafOf(wd, 48, 16)
	if err := m(loss(x1, w1)).Backward(ctx); err != nil {
		t.Fatal(err)
	}
	refX, refW := values(t, x1.Grad()), values(t, w1.Grad())
	refBig := values(t, m(Axpby(ctx, 2, bigT, -1, bigT)))
	refNorm := values(t, m(Norm(ctx, bigT)))[0]

	x, w := leafOf(xd, 32, 48), leafOf(wd, 48, 16)
	var wg sync.WaitGroup
	errs := make(chan error, G)
	for g := range G {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- func() error {
				l, err := loss(x, w)
				if err != nil {
					return err
				}
				if err := l.Backward(ctx); err != nil {
					return err
				}
				r, err := Axpby(ctx, 2, bigT, -1, bigT)
				if err != nil {
					return err
				}
				got, err := r.Float64s()
				if err != nil {
					return err
				}
				for i := range got {
					if got[i] != refBig[i] {
						return fmt.Errorf("goroutine %d: Axpby element %d = %v, want %v", g, i, got[i], refBig[i])
					}
				}
				r.Free()
				n, err := Norm(ctx, bigT)
				if err != nil {
					return err
				}
				if v, _ := n.Item(); v != refNorm {
					return fmt.Errorf("goroutine %d: Norm = %v, want %v", g, v, refNorm)
				}
				c, err := bigT.To(ctx, CUDA(0))
				if err != nil {
					return err
				}
				if c, err = AddScalar(ctx, c, 1); err != nil {
					return err
				}
				return c.Free()
			}()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	scaled := func(v []float64) []float64 {
		out := make([]float64, len(v))
		for i := range v {
			out[i] = G * v[i]
		}
		return out
	}
	tol := func(want []float64) func(int) float64 {
		return func(i int) float64 { return 1e-12 * (math.Abs(want[i]) + 1) }
	}
	wantX, wantW := scaled(refX), scaled(refW)
	closeTo(t, "x.Grad", values(t, x.Grad()), wantX, tol(wantX))
	closeTo(t, "w.Grad", values(t, w.Grad()), wantW, tol(wantW))
}
