package nn

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

func tokens(t testing.TB, dev ops.Device, v []int32, shape ...int) *ops.Tensor {
	t.Helper()
	x, err := ops.FromInt32(v, shape...)
	if err == nil {
		x, err = x.To(context.Background(), dev)
	}
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// The errors of bad arguments name the op and the argument.
func TestArgumentErrors(t *testing.T) {
	ctx := context.Background()
	f := func(seed uint64, shape ...int) *ops.Tensor {
		return uniform(t, seed, ops.Float32, ops.CPU, -1, 1, shape...)
	}
	x, w, b := f(1, 2, 3, 4), f(2, 4), f(3, 4)
	qkv := f(4, 2, 3, 12)
	logits := f(5, 2, 3, 5)
	tg := tokens(t, ops.CPU, []int32{0, 1, 2, 3, 4, 0}, 2, 3)
	wte, wpe := f(6, 5, 4), f(7, 2, 4)
	f16, _ := ops.Zeros(ops.Float16, 2, 3, 5)
	second := func(_ *ops.Tensor, err error) error { return err }
	for _, c := range []struct {
		what string
		err  error
		kind error
		text string
	}{
		{"LayerNorm eps", second(LayerNorm(ctx, x, w, b, -1)), ops.ErrArg, "eps"},
		{"LayerNorm weight", second(LayerNorm(ctx, x, f(8, 5), b, 1e-5)), ops.ErrShape, "weight has shape [5], expected [4]"},
		{"attention nHead", second(CausalSelfAttention(ctx, qkv, 3)), ops.ErrArg, "nHead is 3"},
		{"attention shape", second(CausalSelfAttention(ctx, f(9, 2, 3, 4), 1)), ops.ErrShape, "expected [B, T, 3C]"},
		{"Linear In", second(Linear(ctx, x, f(10, 3, 5), nil)), ops.ErrShape, "expected [..., 5]"},
		{"Linear bias", second(Linear(ctx, x, f(11, 3, 4), f(12, 4))), ops.ErrShape, "bias has shape [4], expected [3]"},
		{"Linear dtype", second(Linear(ctx, x, uniform(t, 13, ops.Float64, ops.CPU, -1, 1, 3, 4), nil)), ops.ErrDType, "weight has dtype float64"},
		{"Embedding T > maxT", second(Embedding(ctx, tg, wte, wpe)), ops.ErrShape, "more than wpe's 2"},
		{"Embedding tokens dtype", second(Embedding(ctx, f(14, 2, 3), wte, f(15, 3, 4))), ops.ErrDType, "tokens has dtype float32, expected int32"},
		{"Embedding token range", second(Embedding(ctx, tokens(t, ops.CPU, []int32{0, 5}, 1, 2), wte, wpe)), ops.ErrArg, "tokens[0, 1] is 5"},
		{"CrossEntropy targets shape", second(CrossEntropy(ctx, logits, tokens(t, ops.CPU, []int32{0, 1}, 2))), ops.ErrShape, "targets"},
		{"CrossEntropy target range", second(CrossEntropy(ctx, logits, tokens(t, ops.CPU, []int32{0, 1, 2, 3, 5, 0}, 2, 3))), ops.ErrArg, "targets[4] (row-major) is 5"},
		{"CrossEntropy target -2", second(CrossEntropy(ctx, logits, tokens(t, ops.CPU, []int32{0, 1, -2, 3, 4, 0}, 2, 3))), ops.ErrArg, "is -2"},
		{"CrossEntropy float16", second(CrossEntropy(ctx, f16, tg)), ops.ErrDType, "logits has dtype float16"},
		{"GELU float16", second(GELU(ctx, f16)), ops.ErrDType, "x has dtype float16"},
	} {
		if !errors.Is(c.err, c.kind) || !strings.Contains(errText(c.err), c.text) {
			t.Errorf("%s: error %v, want %v containing %q", c.what, c.err, c.kind, c.text)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Targets of -1 are left out of the loss and get no gradient; with every target -1 the loss is
// NaN, as torch's.
func TestCrossEntropyIgnoreIndex(t *testing.T) {
	ctx := context.Background()
	for _, dev := range devices() {
		for _, dtype := range dtypes {
			x := uniform(t, 3, dtype, dev, -3, 3, 2, 3, 7)
			tv := []int32{1, -1, 6, 0, -1, 3}
			loss, err := CrossEntropy(ctx, x, tokens(t, dev, tv, 2, 3))
			if err != nil {
				t.Fatal(err)
			}
			want := crossEntropyRef([]optest.Values{{Shape: []int{2, 3, 7}, Data: values(t, x)}, {Shape: []int{2, 3}, Data: f64(tv)}}).Data[0]
			got := values(t, loss)[0]
			if math.Abs(got-want) > 1e-5*math.Abs(want) {
				t.Errorf("%v %v: loss %v, want %v", dev, dtype, got, want)
			}
			if loss.DType() != lossDType(dtype) {
				t.Errorf("%v %v: the loss has dtype %v", dev, dtype, loss.DType())
			}
			xl := x.Detach()
			if err := xl.SetRequiresGrad(true); err != nil {
				t.Fatal(err)
			}
			l2, err := CrossEntropy(ctx, xl, tokens(t, dev, tv, 2, 3))
			if err == nil {
				err = l2.Backward(ctx)
			}
			if err != nil {
				t.Fatal(err)
			}
			g := values(t, xl.Grad())
			for _, r := range []int{1, 4} {
				for i := range 7 {
					if g[r*7+i] != 0 {
						t.Fatalf("%v %v: the gradient of ignored row %d is %v at %d", dev, dtype, r, g[r*7+i], i)
					}
				}
			}
			// A counted row's gradient sums to 0 (softmax minus one-hot), divided by 4 rows.
			var s float64
			for i := range 7 {
				s += g[i]
			}
			if math.Abs(s) > 1e-2 || g[1] >= 0 {
				t.Errorf("%v %v: row 0's gradient %v", dev, dtype, g[:7])
			}
			all, err := CrossEntropy(ctx, x, tokens(t, dev, []int32{-1, -1, -1, -1, -1, -1}, 2, 3))
			if err != nil {
				t.Fatal(err)
			}
			if v := values(t, all)[0]; !math.IsNaN(v) {
				t.Errorf("%v %v: every target ignored: loss %v, want NaN", dev, dtype, v)
			}
		}
	}
}

func f64(v []int32) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// On a GPU a token or target out of range cannot be an error without waiting for the kernel:
// the embedding row is NaN and the loss NaN, as the package doc says.
func TestOutOfRangeOnGPU(t *testing.T) {
	devs := devices()
	if len(devs) < 2 {
		t.Skip("no CUDA device")
	}
	ctx := context.Background()
	gpu := devs[1]
	wte, wpe := uniform(t, 1, ops.Float32, gpu, -1, 1, 5, 4), uniform(t, 2, ops.Float32, gpu, -1, 1, 3, 4)
	y, err := Embedding(ctx, tokens(t, gpu, []int32{0, 7, 2}, 1, 3), wte, wpe)
	if err != nil {
		t.Fatal(err)
	}
	v := values(t, y)
	for i := range 12 {
		if nan := math.IsNaN(v[i]); nan != (i >= 4 && i < 8) {
			t.Fatalf("Embedding with token 7 of 5: element %d is %v", i, v[i])
		}
	}
	loss, err := CrossEntropy(ctx, uniform(t, 3, ops.Float32, gpu, -1, 1, 2, 5), tokens(t, gpu, []int32{1, 9}, 2))
	if err != nil {
		t.Fatal(err)
	}
	if l := values(t, loss)[0]; !math.IsNaN(l) {
		t.Fatalf("CrossEntropy with target 9 of 5: loss %v, want NaN", l)
	}
	if _, err := CausalSelfAttention(ctx, uniform(t, 4, ops.Float32, gpu, -1, 1, 1, 2, 3*260), 1); !errors.Is(err, ops.ErrShape) {
		t.Fatalf("attention with head size 260 on a GPU: %v, want ErrShape", err)
	}
}
