package nn

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

// devices returns the CPU and, where there is one, the first GPU.
func devices() []ops.Device {
	if ok, _ := cuda.Available(); ok {
		return []ops.Device{ops.CPU, ops.CUDA(0)}
	}
	return []ops.Device{ops.CPU}
}

// uniform returns a tensor of dtype on dev of values in [lo, hi) (seeded).
func uniform(t testing.TB, seed uint64, dtype ops.DType, dev ops.Device, lo, hi float64, shape ...int) *ops.Tensor {
	t.Helper()
	ctx := context.Background()
	x, err := ops.Rand(seed, ops.Float64, shape...)
	if err == nil {
		x, err = ops.Scale(ctx, x, hi-lo)
	}
	if err == nil {
		x, err = ops.AddScalar(ctx, x, lo)
	}
	if err == nil {
		x, err = x.AsType(ctx, dtype)
	}
	if err == nil {
		x, err = x.To(ctx, dev)
	}
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func values(t testing.TB, x *ops.Tensor) []float64 {
	t.Helper()
	v, err := x.Float64s()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// adamwRef is AdamW as torch.optim.AdamW's documentation writes it, in float64.
func adamwRef(o AdamW, p, g, m, v []float64, step int) {
	for i := range p {
		p[i] -= o.LR * o.WeightDecay * p[i]
		m[i] = o.Beta1*m[i] + (1-o.Beta1)*g[i]
		v[i] = o.Beta2*v[i] + (1-o.Beta2)*g[i]*g[i]
		mhat := m[i] / (1 - math.Pow(o.Beta1, float64(step)))
		vhat := v[i] / (1 - math.Pow(o.Beta2, float64(step)))
		p[i] -= o.LR * mhat / (math.Sqrt(vhat) + o.Eps)
	}
}

func TestAdamW(t *testing.T) {
	ctx := context.Background()
	o := AdamW{LR: 6e-4, Beta1: 0.9, Beta2: 0.95, Eps: 1e-8, WeightDecay: 0.1}
	for _, dev := range devices() {
		for _, dtype := range []ops.DType{ops.Float32, ops.Float64} {
			shapes := [][]int{{3, 5}, {7}, {0}, {130, 67}}
			var params, m, v []*ops.Tensor
			var rp, rm, rv [][]float64
			for i, sh := range shapes {
				p := uniform(t, uint64(i+1), dtype, dev, -1, 1, sh...)
				params = append(params, p)
				z1, err := ZerosLike(ctx, p)
				if err != nil {
					t.Fatal(err)
				}
				z2, _ := ZerosLike(ctx, p)
				m, v = append(m, z1), append(v, z2)
				rp, rm, rv = append(rp, values(t, p)), append(rm, make([]float64, p.Numel())), append(rv, make([]float64, p.Numel()))
			}
			for step := 1; step <= 4; step++ {
				grads := make([]*ops.Tensor, len(shapes))
				for i, sh := range shapes {
					grads[i] = uniform(t, uint64(100*step+i), dtype, dev, -0.5, 0.5, sh...)
					if step == 3 && i == 1 {
						grads[i] = nil // skipped, as torch skips a parameter without a gradient
						continue
					}
					adamwRef(o, rp[i], values(t, grads[i]), rm[i], rv[i], step)
				}
				if err := o.Step(ctx, params, grads, m, v, step); err != nil {
					t.Fatalf("%v %v step %d: %v", dev, dtype, step, err)
				}
			}
			rtol := 1e-5
			if dtype == ops.Float64 {
				rtol = 1e-12
			}
			for i := range shapes {
				for name, c := range map[string]struct {
					got  *ops.Tensor
					want []float64
				}{"param": {params[i], rp[i]}, "m": {m[i], rm[i]}, "v": {v[i], rv[i]}} {
					got := values(t, c.got)
					for j := range got {
						if d := math.Abs(got[j] - c.want[j]); d > rtol*math.Abs(c.want[j])+rtol*1e-3 {
							t.Fatalf("%v %v %s %d element %d: %v, want %v", dev, dtype, name, i, j, got[j], c.want[j])
						}
					}
				}
			}
		}
	}
}

func TestAdamWErrors(t *testing.T) {
	ctx := context.Background()
	o := AdamW{LR: 1e-3, Beta1: 0.9, Beta2: 0.999, Eps: 1e-8}
	p := uniform(t, 1, ops.Float32, ops.CPU, -1, 1, 3, 4)
	g := uniform(t, 2, ops.Float32, ops.CPU, -1, 1, 3, 4)
	z, _ := ZerosLike(ctx, p)
	z2, _ := ZerosLike(ctx, p)
	bf := uniform(t, 3, ops.BFloat16, ops.CPU, -1, 1, 3, 4)
	g64 := uniform(t, 4, ops.Float64, ops.CPU, -1, 1, 3, 4)
	g5 := uniform(t, 5, ops.Float32, ops.CPU, -1, 1, 3, 5)
	gt, _ := uniform(t, 6, ops.Float32, ops.CPU, -1, 1, 4, 3).Transpose(0, 1)
	one := []*ops.Tensor{p}
	for _, c := range []struct {
		what string
		err  error
		kind error
	}{
		{"lengths", o.Step(ctx, one, nil, one, one, 1), ops.ErrArg},
		{"step 0", o.Step(ctx, one, []*ops.Tensor{g}, []*ops.Tensor{z}, []*ops.Tensor{z2}, 0), ops.ErrArg},
		{"Beta1 1", AdamW{LR: 1, Beta1: 1}.Step(ctx, one, []*ops.Tensor{g}, []*ops.Tensor{z}, []*ops.Tensor{z2}, 1), ops.ErrArg},
		{"bfloat16 params", o.Step(ctx, []*ops.Tensor{bf}, []*ops.Tensor{bf}, []*ops.Tensor{bf}, []*ops.Tensor{bf}, 1), ops.ErrDType},
		{"float64 grad", o.Step(ctx, one, []*ops.Tensor{g64}, []*ops.Tensor{z}, []*ops.Tensor{z2}, 1), ops.ErrDType},
		{"grad shape", o.Step(ctx, one, []*ops.Tensor{g5}, []*ops.Tensor{z}, []*ops.Tensor{z2}, 1), ops.ErrShape},
		{"transposed grad", o.Step(ctx, one, []*ops.Tensor{gt}, []*ops.Tensor{z}, []*ops.Tensor{z2}, 1), ops.ErrShape},
		{"nil m", o.Step(ctx, one, []*ops.Tensor{g}, []*ops.Tensor{nil}, []*ops.Tensor{z2}, 1), ops.ErrNil},
	} {
		if !errors.Is(c.err, c.kind) {
			t.Errorf("%s: %v, want %v", c.what, c.err, c.kind)
		}
	}
}

func TestGradNormAndClip(t *testing.T) {
	ctx := context.Background()
	for _, dev := range devices() {
		for _, dtype := range dtypes {
			a := uniform(t, 1, dtype, dev, -1, 1, 3, 4)
			b := uniform(t, 2, dtype, dev, -1, 1, 5)
			var want float64
			for _, x := range [][]float64{values(t, a), values(t, b)} {
				for _, e := range x {
					want += e * e
				}
			}
			want = math.Sqrt(want)
			grads := []*ops.Tensor{a, nil, b}
			got, err := GradNorm(ctx, grads)
			if err != nil || math.Abs(got-want) > 1e-6*want {
				t.Fatalf("%v %v: GradNorm = %v, %v; want %v", dev, dtype, got, err, want)
			}
			// No clipping above the norm; clipping to half of it below.
			before := values(t, a)
			if n, err := ClipGradNorm(ctx, grads, 2*want); err != nil || n != got {
				t.Fatalf("ClipGradNorm(2·norm) = %v, %v", n, err)
			}
			if after := values(t, a); after[0] != before[0] {
				t.Fatalf("%v %v: ClipGradNorm above the norm changed a gradient: %v -> %v", dev, dtype, before[0], after[0])
			}
			if _, err := ClipGradNorm(ctx, grads, want/2); err != nil {
				t.Fatal(err)
			}
			clipped, _ := GradNorm(ctx, grads)
			tol := 1e-6
			if dtype == ops.BFloat16 {
				tol = 1e-2
			}
			if math.Abs(clipped-want/2) > tol*want {
				t.Fatalf("%v %v: after ClipGradNorm(norm/2) the norm is %v, want %v", dev, dtype, clipped, want/2)
			}
		}
	}
}

func TestScaleInPlace(t *testing.T) {
	ctx := context.Background()
	for _, dev := range devices() {
		for _, dtype := range dtypes {
			x := uniform(t, 7, dtype, dev, -1, 1, 33, 5)
			before := values(t, x)
			if err := ScaleInPlace(ctx, x, -0.375); err != nil {
				t.Fatal(err)
			}
			for i, v := range values(t, x) {
				want := before[i] * -0.375
				switch dtype {
				case ops.Float32:
					want = float64(float32(want))
				case ops.BFloat16:
					want = float64(half.BFloat16From(float32(want)).Float32())
				}
				if v != want {
					t.Fatalf("%v %v element %d: %v, want %v", dev, dtype, i, v, want)
				}
			}
		}
	}
	f16, _ := ops.Zeros(ops.Float16, 2)
	if err := ScaleInPlace(ctx, f16, 2); !errors.Is(err, ops.ErrDType) {
		t.Errorf("ScaleInPlace of float16: %v, want ErrDType", err)
	}
}
