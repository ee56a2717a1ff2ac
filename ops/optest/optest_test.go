package optest_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

// The built-in ops run through the kit as optest.Builtins (ops/cuda's
// TestBuiltins runs it, on the CPU and a GPU); here, that it covers every
// one of them.
func TestBuiltinsCoverEveryOp(t *testing.T) {
	var names []string
	for _, s := range optest.Builtins() {
		name, _, _ := strings.Cut(s.Name, "(") // AsType(float16) is AsType's
		names = append(names, name)
	}
	for _, o := range ops.BuiltinOps() {
		if !slices.Contains(names, o.Name()) {
			t.Errorf("optest.Builtins has no spec of %s (specs: %v)", o.Name(), names)
		}
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
