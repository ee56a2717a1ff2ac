package ops

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// sumDiff is a MultiOp whose CPU kernel writes x+y and x-y (y of any dtype).
var sumDiff = RegisterMultiOp("test.SumDiff", func(_ context.Context, outs, in []*Tensor, scale float64) error {
	x, y := in[0].cpuValues(), in[1].cpuValues()
	s, d := HostView[float64](outs[0]), HostView[float64](outs[1])
	for i := range s {
		s[i], d[i] = scale*(x[i]+y[i]), scale*(x[i]-y[i])
	}
	return nil
})

// cpuValues reads a CPU tensor's logical values.
func (t *Tensor) cpuValues() []float64 {
	v, err := t.Float64s()
	if err != nil {
		panic(err)
	}
	return v
}

func callSumDiff(ctx context.Context, x, y *Tensor, bw FuncBackward) ([]*Tensor, error) {
	return sumDiff.Call(ctx, "SumDiff", []*Tensor{x, y}, func(in []*Tensor, grad bool) ([]Output, float64, FuncBackward, error) {
		if !slices.Equal(in[0].shape, in[1].shape) {
			return nil, 0, nil, opErr("SumDiff", "input 1", ErrShape, "shapes differ")
		}
		o := Output{Shape: in[0].Shape(), DType: Float64}
		return []Output{o, o}, 2.0, bw, nil
	})
}

// TestMultiOp: a MultiOp call takes the dispatcher's path: inputs of two
// dtypes, two outputs, the same checks as an op's, recording for autograd.
func TestMultiOp(t *testing.T) {
	ctx := context.Background()
	m := must(t)
	x := m(FromFloat64([]float64{1, 2, 3}, 3))
	y := m(FromFloat32([]float32{4, 5, 6}, 3))
	outs, err := callSumDiff(ctx, x, y, nil)
	if err != nil {
		t.Fatal(err)
	}
	closeTo(t, "sum", values(t, outs[0]), []float64{10, 14, 18}, func(int) float64 { return 0 })
	closeTo(t, "diff", values(t, outs[1]), []float64{-6, -6, -6}, func(int) float64 { return 0 })

	freed := m(FromFloat64([]float64{1, 2, 3}, 3))
	freed.Free()
	onDev := m(x.To(ctx, CUDA(0)))
	for _, c := range []struct {
		name string
		x, y *Tensor
		want error
	}{
		{"nil", x, nil, ErrNil},
		{"freed", x, freed, ErrFreed},
		{"device", x, onDev, ErrDevice},
		{"shape", x, m(Zeros(Float64, 2)), ErrShape},
		{"no kernel", onDev, onDev, ErrNoKernel},
	} {
		if _, err := callSumDiff(ctx, c.x, c.y, nil); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}

	// With an input that requires grad: no backward is ErrGrad before the
	// kernel runs; with one, both outputs are one node.
	xg := m(FromFloat64([]float64{1, 2, 3}, 3))
	if err := xg.SetRequiresGrad(true); err != nil {
		t.Fatal(err)
	}
	if _, err := callSumDiff(ctx, xg, x, nil); !errors.Is(err, ErrGrad) {
		t.Errorf("no backward: %v, want ErrGrad", err)
	}
	calls := 0
	bw := func(ctx context.Context, grads, in, outs []*Tensor) ([]*Tensor, error) {
		calls++
		// d/dx of 2(x+y)·g0 (the loss uses output 0 only: grads[1] is nil).
		if grads[1] != nil {
			return nil, errors.New("a gradient for the unused output")
		}
		g, err := Scale(ctx, grads[0], 2)
		return []*Tensor{g, nil}, err
	}
	outs, err = callSumDiff(ctx, xg, x, bw)
	if err != nil {
		t.Fatal(err)
	}
	if outs[0].node == nil || outs[0].node != outs[1].node {
		t.Fatal("the outputs are not one autograd node")
	}
	loss := m(Norm(ctx, outs[0]))
	if err := loss.Backward(ctx); err != nil {
		t.Fatal(err)
	}
	if calls != 1 || xg.Grad() == nil {
		t.Errorf("backward ran %d times, grad %v", calls, xg.Grad())
	}
}

func TestRegisterMultiOpDuplicate(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a second op named test.SumDiff did not panic")
		}
	}()
	RegisterMultiOp[float64]("test.SumDiff", nil)
}
