package ops

import (
	"context"
	"errors"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// linear2 is a function with two outputs recorded as one node:
// p = a[0]x + a[1]y, q = a[2]x + a[3]y. Its backward counts its calls and
// which outputs had gradients, and checks what RecordFunc passes it.
type linear2 struct {
	t     *testing.T
	a     [4]float64
	name  string
	calls int
	with  [][]bool
	log   *[]string // names of the backward calls, in order
}

func (f *linear2) call(ctx context.Context, x, y *Tensor) (p, q *Tensor) {
	f.t.Helper()
	p = must(f.t)(Axpby(ctx, f.a[0], x.Detach(), f.a[1], y.Detach()))
	q = must(f.t)(Axpby(ctx, f.a[2], x.Detach(), f.a[3], y.Detach()))
	if err := recordFunc(ctx, f.name, []*Tensor{p, q}, []*Tensor{x, y}, f.backward); err != nil {
		f.t.Fatal(err)
	}
	return p, q
}

func (f *linear2) backward(ctx context.Context, grads, in, outs []*Tensor) ([]*Tensor, error) {
	f.calls++
	if f.log != nil {
		*f.log = append(*f.log, f.name)
	}
	if len(grads) != 2 || len(in) != 2 || len(outs) != 2 {
		return nil, errors.New("linear2: wrong argument counts")
	}
	has := []bool{grads[0] != nil, grads[1] != nil}
	f.with = append(f.with, has)
	for k := range 2 {
		if (outs[k] != nil) != has[k] {
			return nil, errors.New("linear2: an output is passed where its gradient is nil or the reverse")
		}
		if outs[k] != nil && (!outs[k].IsLeaf() || outs[k].RequiresGrad()) {
			return nil, errors.New("linear2: outputs are not detached")
		}
		if in[k].RequiresGrad() {
			return nil, errors.New("linear2: inputs are not detached")
		}
	}
	comb := func(c0, c1 float64) (*Tensor, error) {
		switch {
		case has[0] && has[1]:
			return Axpby(ctx, c0, grads[0], c1, grads[1])
		case has[0]:
			return Scale(ctx, grads[0], c0)
		default:
			return Scale(ctx, grads[1], c1)
		}
	}
	gx, err := comb(f.a[0], f.a[2])
	if err != nil {
		return nil, err
	}
	gy, err := comb(f.a[1], f.a[3])
	if err != nil {
		return nil, err
	}
	return []*Tensor{gx, gy}, nil
}

func (f *linear2) reset() { f.calls, f.with = 0, nil }

// wantOne checks that the node's backward ran once since reset, with
// gradients for the outputs marked in want.
func (f *linear2) wantOne(want ...bool) {
	f.t.Helper()
	if f.calls != 1 || !slices.Equal(f.with[0], want) {
		f.t.Fatalf("%s: backward ran %d times with gradients %v, want once with %v", f.name, f.calls, f.with, want)
	}
}

func sum(ctx context.Context, a, b *Tensor) (*Tensor, error) { return Axpby(ctx, 1, a, 1, b) }

func TestMultiOutputNode(t *testing.T) {
	ctx := context.Background()
	x := leaf(t, 70, []int{3, 4}, kContig)
	y := leaf(t, 71, []int{3, 4}, kTransposed)
	f := &linear2{t: t, a: [4]float64{2, -1, 0.5, 3}, name: "linear2"}
	losses := map[string]struct {
		fn   func(ctx context.Context, p, q *Tensor) (*Tensor, error)
		with []bool
	}{
		"both outputs": {func(ctx context.Context, p, q *Tensor) (*Tensor, error) {
			pp, err := Polynomial(ctx, p, 0.5, -1, 1, 0)
			if err != nil {
				return nil, err
			}
			s, err := sum(ctx, pp, q)
			if err != nil {
				return nil, err
			}
			return Norm(ctx, s)
		}, []bool{true, true}},
		"first only": {func(ctx context.Context, p, _ *Tensor) (*Tensor, error) {
			pp, err := Polynomial(ctx, p, 0.5, -1, 1, 0)
			if err != nil {
				return nil, err
			}
			return Norm(ctx, pp)
		}, []bool{true, false}},
		"second only": {func(ctx context.Context, _, q *Tensor) (*Tensor, error) { return Norm(ctx, q) }, []bool{false, true}},
		"one twice, the other through a view": {func(ctx context.Context, p, q *Tensor) (*Tensor, error) {
			pp, err := Polynomial(ctx, p, 0, 1, 0, 0) // p²
			if err != nil {
				return nil, err
			}
			a, err := Axpby(ctx, 1, pp, 2, p)
			if err != nil {
				return nil, err
			}
			qt, err := q.Transpose(0, 1)
			if err != nil {
				return nil, err
			}
			qn, err := qt.Narrow(0, 1, 2)
			if err != nil {
				return nil, err
			}
			na, err := Norm(ctx, a)
			if err != nil {
				return nil, err
			}
			nq, err := Norm(ctx, qn)
			if err != nil {
				return nil, err
			}
			return sum(ctx, na, nq)
		}, []bool{true, true}},
	}
	for name, l := range losses {
		t.Run(name, func(t *testing.T) {
			f.t = t
			fn := func(ctx context.Context, in []*Tensor) (*Tensor, error) {
				p, q := f.call(ctx, in[0], in[1])
				return l.fn(ctx, p, q)
			}
			gradCheck(t, fn, x, y)
			x.ZeroGrad()
			y.ZeroGrad()
			loss := must(t)(fn(ctx, []*Tensor{x, y}))
			f.reset()
			if err := loss.Backward(ctx); err != nil {
				t.Fatal(err)
			}
			f.wantOne(l.with...)
		})
	}
}

// TestMultiOutputOrder: a node runs once, after every consumer of any of
// its outputs, however deep: here A's p reaches the loss through an op and
// node B, and A's q both through B and directly.
func TestMultiOutputOrder(t *testing.T) {
	ctx := context.Background()
	x := leaf(t, 72, []int{5}, kContig)
	y := leaf(t, 73, []int{5}, kStrided)
	var log []string
	a := &linear2{t: t, a: [4]float64{1, 2, -0.5, 1}, name: "A", log: &log}
	b := &linear2{t: t, a: [4]float64{0.25, 1, 1, -2}, name: "B", log: &log}
	fn := func(ctx context.Context, in []*Tensor) (*Tensor, error) {
		p, q := a.call(ctx, in[0], in[1])
		u, err := Polynomial(ctx, p, 0, 0.5, 1, 0)
		if err != nil {
			return nil, err
		}
		for range 3 { // a longer path from p than from q
			if u, err = AddScalar(ctx, u, 0.1); err != nil {
				return nil, err
			}
		}
		r, s := b.call(ctx, u, q)
		s3, err := Polynomial(ctx, s, 1, 0, 0, 0)
		if err != nil {
			return nil, err
		}
		rs, err := sum(ctx, r, s3)
		if err != nil {
			return nil, err
		}
		n1, err := Norm(ctx, rs)
		if err != nil {
			return nil, err
		}
		n2, err := Norm(ctx, q)
		if err != nil {
			return nil, err
		}
		return sum(ctx, n1, n2)
	}
	gradCheck(t, fn, x, y)
	loss := must(t)(fn(ctx, []*Tensor{x, y}))
	a.reset()
	b.reset()
	log = nil
	if err := loss.Backward(ctx); err != nil {
		t.Fatal(err)
	}
	a.wantOne(true, true)
	b.wantOne(true, true)
	if !slices.Equal(log, []string{"B", "A"}) {
		t.Fatalf("backward order %v, want [B A]", log)
	}
}

// TestMultiOutputIdentity: a backward that returns its incoming gradient
// lets the leaf adopt it (Backward owns it) without freeing it twice.
func TestMultiOutputIdentity(t *testing.T) {
	ctx := context.Background()
	x := leaf(t, 74, []int{6}, kContig)
	p := must(t)(Scale(ctx, x.Detach(), 1))
	q := must(t)(Scale(ctx, x.Detach(), 2))
	bw := func(ctx context.Context, g, _, _ []*Tensor) ([]*Tensor, error) {
		if g[1] == nil {
			return []*Tensor{g[0]}, nil
		}
		gx, err := Axpby(ctx, 1, g[0], 2, g[1])
		return []*Tensor{gx}, err
	}
	if err := recordFunc(ctx, "copy2", []*Tensor{p, q}, []*Tensor{x}, bw); err != nil {
		t.Fatal(err)
	}
	if err := must(t)(Norm(ctx, p)).Backward(ctx); err != nil {
		t.Fatal(err)
	}
	xs := values(t, x)
	n := 0.0
	for _, v := range xs {
		n += v * v
	}
	n = math.Sqrt(n)
	want := make([]float64, len(xs))
	for i, v := range xs {
		want[i] = v / n
	}
	tol := func(int) float64 { return 1e-14 }
	closeTo(t, "grad", values(t, x.Grad()), want, tol)
	// Again through both outputs: the gradients add up.
	if err := must(t)(Norm(ctx, must(t)(sum(ctx, p, q)))).Backward(ctx); err != nil {
		t.Fatal(err)
	}
	for i, v := range xs {
		want[i] += 3 * v / n
	}
	closeTo(t, "grad", values(t, x.Grad()), want, tol)
}

// TestMultiOutputUnusedFreed: an output that nothing uses may be freed or
// dropped; the node does not keep it alive and Backward still runs.
func TestMultiOutputUnusedFreed(t *testing.T) {
	ctx := context.Background()
	x := leaf(t, 75, []int{4}, kContig)
	y := leaf(t, 76, []int{4}, kContig)
	f := &linear2{t: t, a: [4]float64{1, 1, 1, -1}, name: "linear2"}
	p, q := f.call(ctx, x, y)
	if err := q.Free(); err != nil {
		t.Fatal(err)
	}
	if err := must(t)(Norm(ctx, p)).Backward(ctx); err != nil {
		t.Fatal(err)
	}
	f.wantOne(true, false)
	if x.Grad() == nil || y.Grad() == nil {
		t.Fatal("no gradients after freeing the unused output")
	}

	p, q = f.call(ctx, x, y)
	collected := make(chan struct{})
	runtime.AddCleanup(q, func(c chan struct{}) { close(c) }, collected)
	q = nil
	for i := 0; ; i++ {
		runtime.GC()
		select {
		case <-collected:
		case <-time.After(10 * time.Millisecond):
			if i < 50 {
				continue
			}
			t.Fatal("an unused output is kept alive by the graph of its node")
		}
		break
	}
	f.reset()
	if err := must(t)(Norm(ctx, p)).Backward(ctx); err != nil {
		t.Fatal(err)
	}
	f.wantOne(true, false)
}

func TestRecordFuncErrors(t *testing.T) {
	ctx := context.Background()
	x := leaf(t, 77, []int{3}, kContig)
	c := must(t)(FromFloat64([]float64{1, 2, 3}))
	fresh := func() *Tensor { return must(t)(Zeros(Float64, 3)) }
	bw := func(context.Context, []*Tensor, []*Tensor, []*Tensor) ([]*Tensor, error) { return []*Tensor{nil}, nil }
	o := fresh()
	nonLeaf := must(t)(AddScalar(ctx, x, 1))
	for _, tc := range []struct {
		name   string
		outs   []*Tensor
		inputs []*Tensor
		bw     FuncBackward
		kind   error
		text   string
	}{
		{"no outputs", nil, []*Tensor{x}, bw, ErrArg, "no outputs"},
		{"nil output", []*Tensor{fresh(), nil}, []*Tensor{x}, bw, ErrNil, "outs"},
		{"nil input", []*Tensor{fresh()}, []*Tensor{x, nil}, bw, ErrNil, "inputs"},
		{"nil bw", []*Tensor{fresh()}, []*Tensor{x}, nil, ErrArg, "bw is nil"},
		{"output twice", []*Tensor{o, fresh(), o}, []*Tensor{x}, bw, ErrArg, "output 2 is output 0 again"},
		{"output is an input", []*Tensor{fresh(), c}, []*Tensor{x, c}, bw, ErrArg, "output 1 is input 1"},
		{"output records a node", []*Tensor{fresh(), nonLeaf}, []*Tensor{x}, bw, ErrGrad, "output 1 already records a node"},
		{"output requires grad", []*Tensor{x.Detach(), leaf(t, 78, []int{3}, kContig)}, []*Tensor{x}, bw, ErrGrad, "output 1 already records a node or requires grad"},
	} {
		err := recordFunc(ctx, "f", tc.outs, tc.inputs, tc.bw)
		if !errors.Is(err, tc.kind) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("%s: got %v, want %v containing %q", tc.name, err, tc.kind, tc.text)
		}
	}
	// Nothing requires grad: nothing is recorded.
	o = fresh()
	if err := recordFunc(ctx, "f", []*Tensor{o}, []*Tensor{c}, bw); err != nil || !o.IsLeaf() || o.RequiresGrad() {
		t.Fatalf("RecordFunc without grad: %v, leaf %v", err, o.IsLeaf())
	}
	// A backward that returns the wrong count or shape fails Backward.
	for _, tc := range []struct {
		name string
		bw   FuncBackward
		text string
	}{
		{"count", func(context.Context, []*Tensor, []*Tensor, []*Tensor) ([]*Tensor, error) { return nil, nil }, "returned 0 gradients for 1 inputs"},
		{"shape", func(context.Context, []*Tensor, []*Tensor, []*Tensor) ([]*Tensor, error) {
			return []*Tensor{must(t)(Zeros(Float64, 2))}, nil
		}, "expected shape [3]"},
		{"error", func(context.Context, []*Tensor, []*Tensor, []*Tensor) ([]*Tensor, error) {
			return nil, errors.New("boom")
		}, "backward of f: boom"},
	} {
		a, b := fresh(), fresh()
		if err := recordFunc(ctx, "f", []*Tensor{a, b}, []*Tensor{x}, tc.bw); err != nil {
			t.Fatal(err)
		}
		err := must(t)(Norm(ctx, b)).Backward(ctx)
		if !errors.Is(err, ErrGrad) || !strings.Contains(err.Error(), tc.text) {
			t.Errorf("backward %s: got %v, want ErrGrad containing %q", tc.name, err, tc.text)
		}
	}
}
