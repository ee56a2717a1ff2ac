package ops

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// leaf returns a float64 leaf requiring grad with values in [-1, 1) and
// the given layout.
func leaf(t *testing.T, seed uint64, shape []int, kind string) *Tensor {
	t.Helper()
	x := makeView(t, Float64, randData(seed, numel(shape), -1, 1), shape, kind).Detach()
	if err := x.SetRequiresGrad(true); err != nil {
		t.Fatal(err)
	}
	return x
}

func gradCheck(t *testing.T, fn func(ctx context.Context, in []*Tensor) (*Tensor, error), inputs ...*Tensor) {
	ctx := context.Background()
	t.Helper()
	if err := GradCheck(ctx, fn, inputs, GradCheckOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestGradCheckOps(t *testing.T) {
	m := func(f func(ctx context.Context, in []*Tensor) (*Tensor, error)) func(ctx context.Context, in []*Tensor) (*Tensor, error) {
		return f
	}
	cases := []struct {
		name   string
		fn     func(ctx context.Context, in []*Tensor) (*Tensor, error)
		shapes [][]int
	}{
		{"AddScalar", m(func(ctx context.Context, in []*Tensor) (*Tensor, error) { return AddScalar(ctx, in[0], 0.5) }), [][]int{{3, 4}}},
		{"Scale", m(func(ctx context.Context, in []*Tensor) (*Tensor, error) { return Scale(ctx, in[0], -2.5) }), [][]int{{3, 4}}},
		{"Axpby", m(func(ctx context.Context, in []*Tensor) (*Tensor, error) { return Axpby(ctx, 0.7, in[0], -1.3, in[1]) }), [][]int{{3, 4}, {3, 4}}},
		{"Axpby(1,x,1,y)", m(func(ctx context.Context, in []*Tensor) (*Tensor, error) { return Axpby(ctx, 1, in[0], 1, in[1]) }), [][]int{{5}, {5}}},
		{"Norm", m(func(ctx context.Context, in []*Tensor) (*Tensor, error) { return Norm(ctx, in[0]) }), [][]int{{3, 4}}},
		{"Polynomial", m(func(ctx context.Context, in []*Tensor) (*Tensor, error) { return Polynomial(ctx, in[0], 0.5, -1, 2, 3) }), [][]int{{3, 4}}},
		{"RowSoftmax", m(func(ctx context.Context, in []*Tensor) (*Tensor, error) { return RowSoftmax(ctx, in[0]) }), [][]int{{3, 4}}},
		{"MatMul", m(func(ctx context.Context, in []*Tensor) (*Tensor, error) { return MatMul(ctx, in[0], in[1]) }), [][]int{{3, 4}, {4, 2}}},
	}
	for _, c := range cases {
		for _, kind := range []string{kContig, kTransposed, kNarrowed} {
			t.Run(c.name+"/"+kind, func(t *testing.T) {
				var inputs []*Tensor
				for i, s := range c.shapes {
					inputs = append(inputs, leaf(t, uint64(20+i), s, kind))
				}
				gradCheck(t, c.fn, inputs...)
			})
		}
	}
}

func TestGradCheckViews(t *testing.T) {
	x := leaf(t, 30, []int{3, 4}, kContig)
	cases := map[string]func(ctx context.Context, in []*Tensor) (*Tensor, error){
		"Transpose": func(ctx context.Context, in []*Tensor) (*Tensor, error) {
			v, err := in[0].Transpose(0, 1)
			if err != nil {
				return nil, err
			}
			return Polynomial(ctx, v, 1, 0, 0, 0)
		},
		"Narrow": func(ctx context.Context, in []*Tensor) (*Tensor, error) {
			v, err := in[0].Narrow(1, 1, 2)
			if err != nil {
				return nil, err
			}
			return Polynomial(ctx, v, 1, 0, 0, 0)
		},
		"ReshapeView": func(ctx context.Context, in []*Tensor) (*Tensor, error) {
			v, err := in[0].Reshape(2, -1)
			if err != nil {
				return nil, err
			}
			return RowSoftmax(ctx, v)
		},
		"ReshapeTransposedGrad": func(ctx context.Context, in []*Tensor) (*Tensor, error) {
			v, err := in[0].Reshape(4, 3)
			if err != nil {
				return nil, err
			}
			if v, err = v.Transpose(0, 1); err != nil { // Reshape's backward gets a gradient it cannot view
				return nil, err
			}
			return Polynomial(ctx, v, 0, 1, 0, 0)
		},
		"Contiguous": func(ctx context.Context, in []*Tensor) (*Tensor, error) {
			v, err := in[0].Transpose(0, 1)
			if err != nil {
				return nil, err
			}
			if v, err = v.Contiguous(ctx); err != nil {
				return nil, err
			}
			return RowSoftmax(ctx, v)
		},
		"ToDevice": func(ctx context.Context, in []*Tensor) (*Tensor, error) {
			v, err := in[0].To(ctx, CUDA(0))
			if err != nil {
				return nil, err
			}
			if v, err = AddScalar(ctx, v, 1); err != nil { // fake CUDA kernel
				return nil, err
			}
			if v, err = v.To(ctx, CPU); err != nil {
				return nil, err
			}
			return Polynomial(ctx, v, 1, -1, 0, 0)
		},
	}
	for name, fn := range cases {
		t.Run(name, func(t *testing.T) { gradCheck(t, fn, x) })
	}
}

func TestGradCheckChainAndFanOut(t *testing.T) {
	ctx := context.Background()
	x := leaf(t, 40, []int{3, 4}, kContig)
	w := leaf(t, 41, []int{4, 2}, kTransposed)
	t.Run("chain", func(t *testing.T) {
		gradCheck(t, func(ctx context.Context, in []*Tensor) (*Tensor, error) {
			p, err := Polynomial(ctx, in[0], 0.3, -0.5, 1, 0.1)
			if err != nil {
				return nil, err
			}
			s, err := RowSoftmax(ctx, p)
			if err != nil {
				return nil, err
			}
			mm, err := MatMul(ctx, s, in[1])
			if err != nil {
				return nil, err
			}
			a, err := AddScalar(ctx, mm, 1)
			if err != nil {
				return nil, err
			}
			return Norm(ctx, a)
		}, x, w)
	})
	t.Run("fanout", func(t *testing.T) {
		gradCheck(t, func(ctx context.Context, in []*Tensor) (*Tensor, error) {
			p, err := Polynomial(ctx, in[0], 1, 0, 0, 0) // x³
			if err != nil {
				return nil, err
			}
			y, err := Axpby(ctx, 1, p, 2, in[0]) // x³ + 2x: x used twice
			if err != nil {
				return nil, err
			}
			xt, err := in[0].Transpose(0, 1)
			if err != nil {
				return nil, err
			}
			return MatMul(ctx, y, xt) // and twice more
		}, x)
	})
	t.Run("same tensor twice in one op", func(t *testing.T) {
		gradCheck(t, func(ctx context.Context, in []*Tensor) (*Tensor, error) { return Axpby(ctx, 2, in[0], 3, in[0]) }, x)
	})
	t.Run("norm at zero", func(t *testing.T) {
		z := must(t)(Zeros(Float64, 5))
		if err := z.SetRequiresGrad(true); err != nil {
			t.Fatal(err)
		}
		gradCheck(t, func(ctx context.Context, in []*Tensor) (*Tensor, error) { return Norm(ctx, in[0]) }, z)
		n := must(t)(Norm(ctx, z))
		if err := n.Backward(ctx); err != nil {
			t.Fatal(err)
		}
		for _, v := range values(t, z.Grad()) {
			if v != 0 {
				t.Fatalf("grad of norm at 0 = %v, want 0", v)
			}
		}
	})
}

// badSquareOp has a deliberately wrong backward (x instead of 2x), so
// GradCheck must fail on it.
var badSquareOp = RegisterOp(OpDef{
	Name:  "TestBadSquare",
	Args:  []Arg{{Name: "x", Kind: KindTensor}},
	Shape: func(in []*Tensor, _ Args) ([]int, error) { return in[0].Shape(), nil },
	Backward: func(ctx context.Context, g *Tensor, in []*Tensor, _ Args, _ *Tensor) ([]*Tensor, error) {
		gx, err := polynomialBackward(ctx, g, in[0], 0, 0.5, 0) // g*x: wrong
		return []*Tensor{gx}, err
	},
	CPU: func(ctx context.Context, out *Tensor, in []*Tensor, s Args) error {
		r, err := Builtin.Polynomial.call(ctx, "x", in, Args{Floats: []float64{0, 1, 0, 0}}, false)
		if err != nil {
			return err
		}
		copy(out.cpu().f64, r.cpu().f64)
		return nil
	},
})

func TestGradCheckDetectsWrongGradient(t *testing.T) {
	ctx := context.Background()
	x := leaf(t, 50, []int{4}, kContig)
	err := GradCheck(ctx, func(ctx context.Context, in []*Tensor) (*Tensor, error) { return badSquareOp.Call(ctx, in, Args{}) }, []*Tensor{x}, GradCheckOptions{})
	var ge *GradCheckError
	if !errors.As(err, &ge) {
		t.Fatalf("GradCheck on a wrong backward returned %v, want *GradCheckError", err)
	}
	if ge.Input != 0 || ge.Element != 0 || ge.Output != 0 || math.Abs(ge.Analytic*2-ge.Numeric) > 1e-6 {
		t.Fatalf("unexpected mismatch report %+v", ge)
	}
	if !strings.Contains(err.Error(), "inputs[0] element 0") {
		t.Fatalf("message %q", err)
	}
	// A float32 input is refused.
	x32 := fromData(t, Float32, []float64{1, 2})
	x32.SetRequiresGrad(true)
	if err := GradCheck(ctx, func(ctx context.Context, in []*Tensor) (*Tensor, error) { return Norm(ctx, in[0]) }, []*Tensor{x32}, GradCheckOptions{}); !errors.Is(err, ErrDType) {
		t.Fatalf("float32 GradCheck: %v", err)
	}
}

func TestBackwardValues(t *testing.T) {
	ctx := context.Background()
	// y = Norm(x + 1): dy/dx = (x+1)/|x+1|.
	x := must(t)(FromFloat64([]float64{2, -3, 5}))
	if err := x.SetRequiresGrad(true); err != nil {
		t.Fatal(err)
	}
	a := must(t)(AddScalar(ctx, x, 1))
	y := must(t)(Norm(ctx, a))
	if a.IsLeaf() || !a.RequiresGrad() || !y.RequiresGrad() {
		t.Fatal("ops on a tensor requiring grad must record")
	}
	if err := y.Backward(ctx); err != nil {
		t.Fatal(err)
	}
	n := math.Sqrt(9 + 4 + 36)
	want := []float64{3 / n, -2 / n, 6 / n}
	closeTo(t, "grad", values(t, x.Grad()), want, func(int) float64 { return 1e-15 })
	// Gradients accumulate over Backward calls; ZeroGrad resets them.
	if err := y.Backward(ctx); err != nil {
		t.Fatal(err)
	}
	closeTo(t, "grad x2", values(t, x.Grad()), []float64{6 / n, -4 / n, 12 / n}, func(int) float64 { return 1e-15 })
	x.ZeroGrad()
	if x.Grad() != nil {
		t.Fatal("ZeroGrad")
	}
	// BackwardWithGrad scales.
	g := must(t)(Full(2, Float64))
	if err := y.BackwardWithGrad(ctx, g); err != nil {
		t.Fatal(err)
	}
	closeTo(t, "grad with 2", values(t, x.Grad()), []float64{6 / n, -4 / n, 12 / n}, func(int) float64 { return 1e-15 })
	// Intermediate tensors get no grad; inputs that do not require grad neither.
	if a.Grad() != nil {
		t.Fatal("non-leaf got a grad")
	}
}

func TestNoRecordWithoutRequiresGrad(t *testing.T) {
	ctx := context.Background()
	x := must(t)(FromFloat64([]float64{1, 2}))
	y := must(t)(Polynomial(ctx, x, 1, 1, 1, 1))
	if y.RequiresGrad() || !y.IsLeaf() {
		t.Fatal("op on tensors not requiring grad recorded a node")
	}
	if err := must(t)(Norm(ctx, y)).Backward(ctx); !errors.Is(err, ErrGrad) {
		t.Fatalf("Backward without grad: %v", err)
	}
	// Detach stops recording.
	x.SetRequiresGrad(true)
	d := x.Detach()
	if d.RequiresGrad() || must(t)(AddScalar(ctx, d, 1)).RequiresGrad() {
		t.Fatal("Detach must stop recording")
	}
}

func TestAutogradErrors(t *testing.T) {
	ctx := context.Background()
	x := must(t)(FromFloat64([]float64{1, 2, 3}))
	x.SetRequiresGrad(true)
	y := must(t)(AddScalar(ctx, x, 1))
	if err := y.Backward(ctx); !errors.Is(err, ErrShape) || !strings.Contains(err.Error(), "BackwardWithGrad") {
		t.Fatalf("Backward on 3 elements: %v", err)
	}
	if err := y.SetRequiresGrad(false); !errors.Is(err, ErrGrad) {
		t.Fatalf("SetRequiresGrad on non-leaf: %v", err)
	}
	g32 := fromData(t, Float32, []float64{1, 1, 1})
	if err := y.BackwardWithGrad(ctx, g32); !errors.Is(err, ErrDType) || !strings.Contains(err.Error(), "grad has dtype float32") {
		t.Fatalf("BackwardWithGrad dtype: %v", err)
	}
	if err := y.BackwardWithGrad(ctx, must(t)(Zeros(Float64, 2))); !errors.Is(err, ErrShape) {
		t.Fatalf("BackwardWithGrad shape: %v", err)
	}
	gc := must(t)(must(t)(Zeros(Float64, 3)).To(ctx, CUDA(0)))
	if err := y.BackwardWithGrad(ctx, gc); !errors.Is(err, ErrDevice) || !strings.Contains(err.Error(), "grad is on cuda:0, expected cpu") {
		t.Fatalf("BackwardWithGrad device: %v", err)
	}
	if err := y.BackwardWithGrad(ctx, nil); !errors.Is(err, ErrNil) {
		t.Fatalf("BackwardWithGrad nil: %v", err)
	}
	// PolynomialBackward has no backward: Backward through it fails clearly.
	g := must(t)(Full(1, Float64, 3))
	pb := must(t)(polynomialBackward(ctx, g, x, 1, 1, 1))
	if err := must(t)(Norm(ctx, pb)).Backward(ctx); !errors.Is(err, ErrGrad) || !strings.Contains(err.Error(), "PolynomialBackward: backward is not implemented") {
		t.Fatalf("Backward through non-differentiable op: %v", err)
	}
}

func TestLongChain(t *testing.T) {
	ctx := context.Background()
	// A deep graph must not overflow anything (iterative topo sort).
	x := leaf(t, 60, []int{4}, kContig)
	y := x
	for range 2000 {
		y = must(t)(AddScalar(ctx, y, 0.001))
	}
	if err := must(t)(Norm(ctx, y)).Backward(ctx); err != nil {
		t.Fatal(err)
	}
	if g := x.Grad(); g == nil || !slices.Equal(g.Shape(), []int{4}) {
		t.Fatalf("grad %v", g)
	}
}

// TestGradHooks: a leaf's hooks run once per Backward, after every use of
// the leaf has been accumulated (a leaf used twice sees the sum), in the
// order added, before the leaves Backward reaches later; a leaf that gets
// no gradient runs none; an error stops Backward; remove works; SetGrad
// replaces the gradient.
func TestGradHooks(t *testing.T) {
	ctx := context.Background()
	a := leaf(t, 1, []int{3}, "contiguous")
	b := leaf(t, 2, []int{3}, "contiguous")
	unused := leaf(t, 3, []int{3}, "contiguous")
	var seen []string
	var gradA []float64
	hook := func(name string) GradHook {
		return func(ctx context.Context, l *Tensor) error {
			seen = append(seen, name)
			if l == a && name == "a1" {
				g, err := l.Grad().Float64s()
				if err != nil {
					return err
				}
				gradA = g
			}
			return nil
		}
	}
	for _, h := range []struct {
		t    *Tensor
		name string
	}{{a, "a1"}, {a, "a2"}, {b, "b"}, {unused, "unused"}} {
		if _, err := h.t.AddGradHook(hook(h.name)); err != nil {
			t.Fatal(err)
		}
	}
	// y = a*a (elementwise via Polynomial of a plus a) + b: loss = ||(a^2 + a) + 2b||.
	sq, err := Polynomial(ctx, a, 0, 1, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Axpby(ctx, 1, sq, 1, a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := Axpby(ctx, 1, s, 2, b)
	if err != nil {
		t.Fatal(err)
	}
	loss, err := Norm(ctx, y)
	if err != nil {
		t.Fatal(err)
	}
	if err := loss.Backward(ctx); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(seen, []string{"b", "a1", "a2"}) && !slices.Equal(seen, []string{"a1", "a2", "b"}) {
		t.Fatalf("hooks ran %v, want a1, a2 and b once each (a1 before a2), not unused", seen)
	}
	want, err := a.Grad().Float64s()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(gradA, want) {
		t.Fatalf("hook saw grad %v, final grad %v", gradA, want)
	}
	// An error stops Backward.
	boom := errors.New("boom")
	remove, err := b.AddGradHook(func(context.Context, *Tensor) error { return boom })
	if err != nil {
		t.Fatal(err)
	}
	if err := loss.Backward(ctx); !errors.Is(err, boom) {
		t.Fatalf("Backward with a failing hook = %v, want boom", err)
	}
	remove()
	if err := loss.Backward(ctx); err != nil {
		t.Fatalf("Backward after remove: %v", err)
	}
	if _, err := y.AddGradHook(hook("y")); !errors.Is(err, ErrGrad) {
		t.Fatalf("AddGradHook on a non-leaf = %v, want ErrGrad", err)
	}
	if _, err := a.AddGradHook(nil); !errors.Is(err, ErrArg) {
		t.Fatalf("AddGradHook(nil) = %v, want ErrArg", err)
	}
	z, err := Zeros(Float64, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.SetGrad(z); err != nil || a.Grad() != z {
		t.Fatalf("SetGrad = %v, Grad %v", err, a.Grad())
	}
	bad, _ := Zeros(Float32, 3)
	if err := a.SetGrad(bad); !errors.Is(err, ErrShape) {
		t.Fatalf("SetGrad of a float32 gradient = %v, want ErrShape", err)
	}
	if err := y.SetGrad(nil); !errors.Is(err, ErrGrad) {
		t.Fatalf("SetGrad on a non-leaf = %v, want ErrGrad", err)
	}
}
