package ops

import (
	"context"
	"slices"
	"sync"
	"testing"
)

// scaleTwiceMade records the gradients scaleTwiceOp's backward computed, so
// the tests can see what Backward did with them.
var (
	scaleTwiceMu   sync.Mutex
	scaleTwiceMade []*Tensor
)

// scaleTwiceOp is y = 2x with a backward that computes a fresh 2g.
var scaleTwiceOp = RegisterOp(OpDef{
	Name:  "TestScaleTwice",
	Args:  []Arg{{Name: "x", Kind: KindTensor}},
	Shape: func(in []*Tensor, _ Args) ([]int, error) { return in[0].Shape(), nil },
	Backward: func(ctx context.Context, g *Tensor, _ []*Tensor, _ Args, _ *Tensor) ([]*Tensor, error) {
		gx, err := Axpby(ctx, 1, g, 1, g)
		scaleTwiceMu.Lock()
		scaleTwiceMade = append(scaleTwiceMade, gx)
		scaleTwiceMu.Unlock()
		return []*Tensor{gx}, err
	},
	CPU: func(ctx context.Context, out *Tensor, in []*Tensor, _ Args) error {
		r, err := Builtin.Axpby.call(ctx, "x", []*Tensor{in[0], in[0]}, Args{Floats: []float64{1, 1}}, false)
		if err != nil {
			return err
		}
		copy(out.cpu().f64, r.cpu().f64)
		return nil
	},
})

func takeMade() []*Tensor {
	scaleTwiceMu.Lock()
	defer scaleTwiceMu.Unlock()
	m := scaleTwiceMade
	scaleTwiceMade = nil
	return m
}

func freed(t *Tensor) bool { return t.Storage() == nil }

func wantValues(tb testing.TB, x *Tensor, want []float64) {
	tb.Helper()
	if got := values(tb, x); !slices.Equal(got, want) {
		tb.Errorf("values %v, want %v", got, want)
	}
}

// A leaf adopts the gradient its last backward computed (no copy), and the
// gradients in between are freed as soon as they are consumed.
func TestBackwardAdoptsAndFrees(t *testing.T) {
	ctx := context.Background()
	x := fromData(t, Float64, []float64{1, -2, 3}, 3)
	if err := x.SetRequiresGrad(true); err != nil {
		t.Fatal(err)
	}
	y, err := scaleTwiceOp.Call(ctx, []*Tensor{x}, Args{})
	if err != nil {
		t.Fatal(err)
	}
	z, err := scaleTwiceOp.Call(ctx, []*Tensor{y}, Args{})
	if err != nil {
		t.Fatal(err)
	}
	takeMade()
	g := fromData(t, Float64, []float64{1, 1, 1}, 3)
	if err := z.BackwardWithGrad(ctx, g); err != nil {
		t.Fatal(err)
	}
	made := takeMade() // made[0]: dz/dy (consumed by y's backward), made[1]: dz/dx
	if len(made) != 2 {
		t.Fatalf("%d gradients computed, want 2", len(made))
	}
	if !freed(made[0]) {
		t.Error("the intermediate gradient dz/dy was not freed once y's backward had consumed it")
	}
	if x.Grad().buf != made[1].buf {
		t.Error("x's Grad is a copy of the last backward's result, want that result adopted")
	}
	if freed(g) || freed(x.Grad()) {
		t.Error("the caller's grad or the leaf's Grad was freed")
	}
	wantValues(t, x.Grad(), []float64{4, 4, 4})
	// The second Backward adds into the first Grad, which the caller may hold: not freed.
	first := x.Grad()
	if err := z.BackwardWithGrad(ctx, g); err != nil {
		t.Fatal(err)
	}
	takeMade()
	wantValues(t, x.Grad(), []float64{8, 8, 8})
	if freed(first) {
		t.Error("Backward freed the Grad of the first call")
	}
	wantValues(t, first, []float64{4, 4, 4})
}

// A backward that returns its incoming gradient (AddScalar's does) must not
// hand the caller's grad to the leaf: the leaf gets a private copy.
func TestBackwardCopiesForeignGradient(t *testing.T) {
	ctx := context.Background()
	x := fromData(t, Float64, []float64{1, 2}, 2)
	if err := x.SetRequiresGrad(true); err != nil {
		t.Fatal(err)
	}
	y, err := AddScalar(ctx, x, 1)
	if err != nil {
		t.Fatal(err)
	}
	g := fromData(t, Float64, []float64{3, 4}, 2)
	if err := y.BackwardWithGrad(ctx, g); err != nil {
		t.Fatal(err)
	}
	if x.Grad().buf == g.buf {
		t.Fatal("x's Grad aliases the caller's grad")
	}
	g.cpu().f64[0] = 100
	wantValues(t, x.Grad(), []float64{3, 4})
}

// Fan-out: x feeds two branches whose gradients are summed; one branch's
// backward returns its incoming gradient, the other a fresh one. Nothing the
// sum still needs is freed, and the values are right.
func TestBackwardFanOutOwnership(t *testing.T) {
	ctx := context.Background()
	x := fromData(t, Float64, []float64{1, 2, 3}, 3)
	if err := x.SetRequiresGrad(true); err != nil {
		t.Fatal(err)
	}
	a, err := AddScalar(ctx, x, 1) // backward: g itself
	if err != nil {
		t.Fatal(err)
	}
	b, err := scaleTwiceOp.Call(ctx, []*Tensor{x}, Args{}) // backward: fresh 2g
	if err != nil {
		t.Fatal(err)
	}
	s, err := Axpby(ctx, 1, a, 1, b) // backward: g for both (or scaled copies)
	if err != nil {
		t.Fatal(err)
	}
	c, err := scaleTwiceOp.Call(ctx, []*Tensor{s}, Args{}) // makes the gradient entering s owned
	if err != nil {
		t.Fatal(err)
	}
	takeMade()
	if err := c.BackwardWithGrad(ctx, fromData(t, Float64, []float64{1, 1, 1}, 3)); err != nil {
		t.Fatal(err)
	}
	takeMade()
	wantValues(t, x.Grad(), []float64{6, 6, 6}) // dc/dx = 2 * (1 + 2)
}
