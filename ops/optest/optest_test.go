package optest_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/backward"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

// The built-in ops of package ops, through the kit.

func unary(name string, f func(ctx context.Context, x *ops.Tensor) (*ops.Tensor, error), ref func(v float64) float64) optest.Spec {
	return optest.Spec{
		Name:   name,
		Call:   func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return f(ctx, in[0]) },
		Ref:    optest.Elementwise(func(v []float64) float64 { return ref(v[0]) }),
		Inputs: 1,
	}
}

func TestAddScalar(t *testing.T) {
	optest.Run(t, unary("AddScalar", func(ctx context.Context, x *ops.Tensor) (*ops.Tensor, error) { return ops.AddScalar(ctx, x, 0.75) },
		func(v float64) float64 { return v + 0.75 }))
}

func TestScale(t *testing.T) {
	optest.Run(t, unary("Scale", func(ctx context.Context, x *ops.Tensor) (*ops.Tensor, error) { return ops.Scale(ctx, x, -1.5) },
		func(v float64) float64 { return -1.5 * v }))
}

func TestPolynomial(t *testing.T) {
	optest.Run(t, unary("Polynomial", func(ctx context.Context, x *ops.Tensor) (*ops.Tensor, error) {
		return ops.Polynomial(ctx, x, 0.5, -1, 2, 0.25)
	}, func(v float64) float64 { return ((0.5*v-1)*v+2)*v + 0.25 }))
}

func TestAxpby(t *testing.T) {
	optest.Run(t, optest.Spec{
		Name: "Axpby",
		Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			return ops.Axpby(ctx, 2, in[0], -0.5, in[1])
		},
		Ref:    optest.Elementwise(func(v []float64) float64 { return 2*v[0] - 0.5*v[1] }),
		Inputs: 2,
	})
}

func TestPolynomialBackward(t *testing.T) {
	optest.Run(t, optest.Spec{
		Name: "PolynomialBackward",
		Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			return backward.Polynomial(ctx, in[0], in[1], 0.5, -1, 2)
		},
		Ref:    optest.Elementwise(func(v []float64) float64 { return v[0] * ((1.5*v[1]-2)*v[1] + 2) }),
		Inputs: 2,
		NoGrad: true,
	})
}

// l2 is the L2 norm of v.
func l2(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}

func TestNorm(t *testing.T) {
	optest.Run(t, optest.Spec{
		Name: "Norm",
		Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return ops.Norm(ctx, in[0]) },
		Ref: func(in []optest.Values) optest.Values {
			return optest.Values{Shape: []int{}, Data: []float64{l2(in[0].Data)}}
		},
		Inputs: 1,
	})
}

func TestNormBackward(t *testing.T) {
	optest.Run(t, optest.Spec{
		Name: "NormBackward",
		Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			return backward.Norm(ctx, in[0], in[1], in[2])
		},
		Ref: func(in []optest.Values) optest.Values {
			g, n := in[0].Data[0], in[2].Data[0]
			return optest.Elementwise(func(v []float64) float64 { return g * v[0] / n })(in[1:2])
		},
		Shapes:     [][][]int{{{}, {}, {}}, {{}, {0, 3}, {}}, {{}, {7, 5}, {}}, {{}, {65, 67}, {}}},
		GradShapes: [][]int{{}, {3, 4}, {}},
		NoGrad:     true,
		Lo:         0.5, Hi: 2, // norm away from 0
	})
}

// softmax returns the softmax of each row of a [B, D] matrix.
func softmax(x optest.Values) optest.Values {
	out := optest.Values{Shape: slices.Clone(x.Shape), Data: make([]float64, len(x.Data))}
	d := x.Shape[1]
	for r := 0; r*d < len(x.Data); r++ {
		row := x.Data[r*d : (r+1)*d]
		m := math.Inf(-1)
		for _, v := range row {
			m = max(m, v)
		}
		s := 0.0
		for j, v := range row {
			out.Data[r*d+j] = math.Exp(v - m)
			s += out.Data[r*d+j]
		}
		for j := range row {
			out.Data[r*d+j] /= s
		}
	}
	return out
}

var rowShapes = [][][]int{{{0, 3}}, {{1, 1}}, {{7, 5}}, {{65, 67}}, {{3, 1100}}}

func TestRowSoftmax(t *testing.T) {
	optest.Run(t, optest.Spec{
		Name:   "RowSoftmax",
		Call:   func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return ops.RowSoftmax(ctx, in[0]) },
		Ref:    func(in []optest.Values) optest.Values { return softmax(in[0]) },
		Shapes: rowShapes,
	})
}

func TestRowSoftmaxBackward(t *testing.T) {
	var shapes [][][]int
	for _, c := range rowShapes {
		shapes = append(shapes, [][]int{c[0], c[0]})
	}
	optest.Run(t, optest.Spec{
		Name: "RowSoftmaxBackward",
		Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			return backward.RowSoftmax(ctx, in[0], in[1])
		},
		Ref: func(in []optest.Values) optest.Values {
			g, y := in[0], in[1]
			out := optest.Values{Shape: slices.Clone(g.Shape), Data: make([]float64, len(g.Data))}
			d := g.Shape[1]
			for r := 0; r*d < len(g.Data); r++ {
				dot := 0.0
				for j := range d {
					dot += g.Data[r*d+j] * y.Data[r*d+j]
				}
				for j := range d {
					out.Data[r*d+j] = y.Data[r*d+j] * (g.Data[r*d+j] - dot)
				}
			}
			return out
		},
		Shapes: shapes,
		NoGrad: true,
	})
}

func TestMatMul(t *testing.T) {
	optest.Run(t, optest.Spec{
		Name:       "MatMul",
		Call:       func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return ops.MatMul(ctx, in[0], in[1]) },
		Ref:        optest.MatMul,
		Shapes:     optest.MatMulShapes,
		GradShapes: [][]int{{3, 4}, {4, 2}},
		Tol:        optest.MatMulTolerance,
	})
}

func TestNarrowBackward(t *testing.T) {
	const dim, start, size = 1, 2, 9
	optest.Run(t, optest.Spec{
		Name: "NarrowBackward",
		Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			return backward.Narrow(ctx, in[0], dim, start, size)
		},
		Ref: func(in []optest.Values) optest.Values {
			g := in[0]
			rows, cols := g.Shape[0], g.Shape[1]
			out := optest.Values{Shape: []int{rows, size}, Data: make([]float64, rows*size)}
			for i := range rows {
				copy(out.Data[i*size+start:], g.Data[i*cols:(i+1)*cols])
			}
			return out
		},
		Shapes:     [][][]int{{{0, 3}}, {{1, 1}}, {{7, 5}}, {{65, 7}}},
		GradShapes: [][]int{{3, 4}},
		NoGrad:     true,
	})
}

func TestAsType(t *testing.T) {
	for _, to := range optest.AllDTypes {
		t.Run(to.String(), func(t *testing.T) {
			optest.Run(t, optest.Spec{
				Name: "AsType(" + to.String() + ")",
				Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return in[0].AsType(ctx, to) },
				// The values are rounded to the input's dtype already; converting them to a dtype
				// at least as wide is exact, to a narrower one a rounding of that dtype.
				Ref:    optest.Elementwise(func(v []float64) float64 { return v[0] }),
				Inputs: 1,
				Tol:    func(from ops.DType) (float64, float64) { return optest.Tolerance(to) },
				NoGrad: to != ops.Float64, // GradCheck needs a float64 result (AsType's own: ops' tests)
			})
		})
	}
}

// Broken ops the kit must fail, run by TestRunFailsBrokenOps in a child process.

// ignoresStrides is a float64 op whose CPU kernel reads its input's storage linearly from its
// offset, as if it were contiguous.
var ignoresStrides = ops.RegisterOp(ops.OpDef{
	Name:  "OptestIgnoresStrides",
	Args:  []ops.Arg{{Name: "x", Kind: ops.KindTensor}},
	Shape: func(in []*ops.Tensor, _ ops.Args) ([]int, error) { return in[0].Shape(), nil },
	CPU: func(_ context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
		if out.DType() != ops.Float64 {
			return fmt.Errorf("float64 only: %w", ops.ErrDType)
		}
		src := in[0].Storage().(*ops.CPUStorage).Float64()[in[0].Offset():]
		copy(ops.HostView[float64](out), src)
		return nil
	},
})

// acceptsAnyDType copies its input in every dtype but claims float32 only; its backward is wrong
// (twice the gradient).
var acceptsAnyDType = ops.RegisterOp(ops.OpDef{
	Name:  "OptestAcceptsAnyDType",
	Args:  []ops.Arg{{Name: "x", Kind: ops.KindTensor}},
	Shape: func(in []*ops.Tensor, _ ops.Args) ([]int, error) { return in[0].Shape(), nil },
	Backward: func(ctx context.Context, g *ops.Tensor, _ []*ops.Tensor, _ ops.Args, _ *ops.Tensor) ([]*ops.Tensor, error) {
		gx, err := ops.Scale(ctx, g, 2)
		return []*ops.Tensor{gx}, err
	},
	CPU: func(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
		y, err := ops.AddScalar(ctx, in[0].Detach(), 0)
		if err != nil {
			return err
		}
		v, err := y.Float64s()
		if err != nil {
			return err
		}
		w, err := ops.FromFloat64(v, y.Shape()...)
		if err == nil {
			w, err = w.AsType(ctx, out.DType())
		}
		if err != nil {
			return err
		}
		return copyInto(out, w)
	},
})

// copyInto copies the contiguous CPU tensor src into out, of the same dtype and size.
func copyInto(out, src *ops.Tensor) error {
	d, s := out.Storage().(*ops.CPUStorage), src.Storage().(*ops.CPUStorage)
	copy(d.Float32(), s.Float32())
	copy(d.Float64(), s.Float64())
	copy(d.Float16(), s.Float16())
	copy(d.BFloat16(), s.BFloat16())
	return nil
}

func call(op *ops.Op) func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
	return func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return op.Call(ctx, in, ops.Args{}) }
}

var identity = optest.Elementwise(func(v []float64) float64 { return v[0] })

var broken = map[string]struct {
	spec optest.Spec
	want string // in the child's output
}{
	"wrongref": {optest.Spec{Name: "AddScalar", Inputs: 1, Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
		return ops.AddScalar(ctx, in[0], 0.75)
	}, Ref: optest.Elementwise(func(v []float64) float64 { return v[0] + 0.5 })}, "against Ref"},
	"strides":  {optest.Spec{Name: "IgnoresStrides", Inputs: 1, Call: call(ignoresStrides), Ref: identity, DTypes: []ops.DType{ops.Float64}, NoGrad: true}, "layouts [strided]"},
	"dtypes":   {optest.Spec{Name: "AcceptsAnyDType", Inputs: 1, Call: call(acceptsAnyDType), Ref: identity, DTypes: []ops.DType{ops.Float32}}, "a dtype Spec.DTypes leaves out"},
	"backward": {optest.Spec{Name: "AcceptsAnyDType", Inputs: 1, Call: call(acceptsAnyDType), Ref: identity}, "GradCheck on cpu"},
}

// TestBroken runs the kit on the broken ops; only in the child process of TestRunFailsBrokenOps.
func TestBroken(t *testing.T) {
	name := os.Getenv("OPTEST_BROKEN")
	if name == "" {
		t.Skip("run by TestRunFailsBrokenOps")
	}
	optest.Run(t, broken[name].spec)
}

// TestRunFailsBrokenOps checks that Run fails each broken op, with a message naming the check.
func TestRunFailsBrokenOps(t *testing.T) {
	for name, c := range broken {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestBroken$", "-test.v")
			cmd.Env = append(os.Environ(), "OPTEST_BROKEN="+name)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("optest.Run passed the broken op %q:\n%s", name, out)
			}
			if !strings.Contains(string(out), c.want) {
				t.Fatalf("optest.Run failed the broken op %q without %q in its output:\n%s", name, c.want, out)
			}
		})
	}
}

func TestLayouts(t *testing.T) {
	ctx := context.Background()
	data := []float64{1, 2, 3, 4, 5, 6}
	for _, shape := range [][]int{{6}, {2, 3}, {1, 2, 3}} {
		for _, l := range optest.Layouts(shape) {
			v, err := optest.View(ctx, ops.Float32, data, shape, l, ops.CPU)
			if err != nil {
				t.Fatalf("%v %s: %v", shape, l, err)
			}
			got, err := v.Float64s()
			if err != nil || !slices.Equal(got, data) || !slices.Equal(v.Shape(), shape) {
				t.Errorf("%v %s: %v %v (%v), want %v", shape, l, v, got, err, data)
			}
			if (l == optest.Contiguous || l == optest.Offset) != v.IsContiguous() {
				t.Errorf("%v %s: strides %v", shape, l, v.Strides())
			}
		}
	}
	if _, err := optest.View(ctx, ops.Float32, data, []int{6}, optest.Transposed, ops.CPU); err == nil {
		t.Error("a transposed 1-D view was made")
	}
}
