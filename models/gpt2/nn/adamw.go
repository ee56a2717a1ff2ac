package nn

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
)

// AdamW is torch.optim.AdamW's update (amsgrad off, maximize off) with its hyperparameters:
// torch's defaults are LR 1e-3, Beta1 0.9, Beta2 0.999, Eps 1e-8, WeightDecay 1e-2.
type AdamW struct {
	LR, Beta1, Beta2, Eps, WeightDecay float64
}

// Step applies step number step (counted from 1) of AdamW to params in place, as
// torch.optim.AdamW does for each parameter p with gradient g and moments m and v:
//
//	p *= 1 - LR·WeightDecay
//	m = lerp(m, g, 1 - Beta1)
//	v = Beta2·v + (1 - Beta2)·g²
//	p -= LR/(1 - Beta1^step) · m / (√v/√(1 - Beta2^step) + Eps)
//
// params[i], grads[i], m[i] and v[i] must have one shape, dtype (float32 or float64: keep
// master weights in float32) and device, and be contiguous; m and v start at zero (ZerosLike).
// A nil gradient skips its parameter, as torch does. On a GPU it is one kernel per parameter
// on the context's stream, computing in the parameters' dtype like torch.
func (o AdamW) Step(ctx context.Context, params, grads, m, v []*ops.Tensor, step int) error {
	const op = "nn.AdamW.Step"
	if ctx == nil {
		return argErr(op, "ctx", ops.ErrArg, "context is nil (use context.Background())")
	}
	if len(grads) != len(params) || len(m) != len(params) || len(v) != len(params) {
		return argErr(op, "grads", ops.ErrArg, "got %d params, %d grads, %d m and %d v: expected one of each per parameter", len(params), len(grads), len(m), len(v))
	}
	if step < 1 {
		return argErr(op, "step", ops.ErrArg, "step is %d, expected the step number counted from 1", step)
	}
	for _, h := range []struct {
		name string
		x    float64
		ok   bool
	}{{"LR", o.LR, o.LR >= 0}, {"Beta1", o.Beta1, o.Beta1 >= 0 && o.Beta1 < 1}, {"Beta2", o.Beta2, o.Beta2 >= 0 && o.Beta2 < 1},
		{"Eps", o.Eps, o.Eps >= 0}, {"WeightDecay", o.WeightDecay, o.WeightDecay >= 0}} {
		if !h.ok || math.IsInf(h.x, 0) {
			return argErr(op, h.name, ops.ErrArg, "%s is %v, expected a finite value >= 0 (betas < 1)", h.name, h.x)
		}
	}
	s := adamwScalars{
		lr: o.LR, beta1: o.Beta1, beta2: o.Beta2, eps: o.Eps, decay: 1 - o.LR*o.WeightDecay,
		stepSize: o.LR / (1 - math.Pow(o.Beta1, float64(step))), bc2Sqrt: math.Sqrt(1 - math.Pow(o.Beta2, float64(step))),
	}
	for i, p := range params {
		if grads[i] == nil {
			continue
		}
		ts := []*ops.Tensor{p, grads[i], m[i], v[i]}
		names := []string{fmt.Sprintf("params[%d]", i), fmt.Sprintf("grads[%d]", i), fmt.Sprintf("m[%d]", i), fmt.Sprintf("v[%d]", i)}
		if err := checkInPlace(op, ts, names, ops.Float32, ops.Float64); err != nil {
			return err
		}
		var err error
		if p.Device().Type == ops.DeviceCPU {
			err = adamwCPU(ts, s)
		} else {
			err = adamwCUDA(ctx, ts, s)
		}
		if err != nil {
			return fmt.Errorf("%s: %s: %w", op, names[0], err)
		}
	}
	return nil
}

// adamwScalars are one step's constants, computed in float64 on the host as torch does.
type adamwScalars struct {
	lr, beta1, beta2, eps, decay, stepSize, bc2Sqrt float64
}

// checkInPlace checks the tensors of an in-place update: non-nil, live, contiguous, of one of
// dtypes and of the first one's shape, dtype and device.
func checkInPlace(op string, ts []*ops.Tensor, names []string, dtypes ...ops.DType) error {
	first := ts[0]
	for i, t := range ts {
		if t == nil {
			return argErr(op, names[i], ops.ErrNil, "%s is nil", names[i])
		}
		if t.Storage() == nil {
			return argErr(op, names[i], ops.ErrFreed, "%s has been freed", names[i])
		}
		if i == 0 {
			ok := false
			for _, d := range dtypes {
				ok = ok || t.DType() == d
			}
			if !ok {
				return argErr(op, names[i], ops.ErrDType, "%s has dtype %v, expected one of %v", names[i], t.DType(), dtypes)
			}
		} else if t.DType() != first.DType() {
			return argErr(op, names[i], ops.ErrDType, "%s has dtype %v, expected %v (same as %s)", names[i], t.DType(), first.DType(), names[0])
		}
		if !slices.Equal(t.Shape(), first.Shape()) {
			return shapeErr(op, names[i], "%s has shape %v, expected %v (same as %s)", names[i], t.Shape(), first.Shape(), names[0])
		}
		if t.Device() != first.Device() {
			return argErr(op, names[i], ops.ErrDevice, "%s is on %v, expected %v (same as %s)", names[i], t.Device(), first.Device(), names[0])
		}
		if !t.IsContiguous() {
			return shapeErr(op, names[i], "%s is not contiguous (strides %v): it is updated in place", names[i], t.Strides())
		}
	}
	return nil
}

func adamwCPU(ts []*ops.Tensor, s adamwScalars) error {
	if ts[0].DType() == ops.Float32 {
		adamwSlices(ops.HostView[float32](ts[0]), ops.HostView[float32](ts[1]), ops.HostView[float32](ts[2]), ops.HostView[float32](ts[3]), s)
	} else {
		adamwSlices(ops.HostView[float64](ts[0]), ops.HostView[float64](ts[1]), ops.HostView[float64](ts[2]), ops.HostView[float64](ts[3]), s)
	}
	return nil
}

// adamwSlices is the update in T's arithmetic, the order of torch's foreach implementation.
func adamwSlices[T float32 | float64](p, g, m, v []T, s adamwScalars) {
	decay, w, b2, omb2 := T(s.decay), T(1-s.beta1), T(s.beta2), T(1-s.beta2)
	stepSize, bc2, eps := T(s.stepSize), T(s.bc2Sqrt), T(s.eps)
	for i := range p {
		p[i] *= decay
		gi := g[i]
		if w < 0.5 { // torch's lerp
			m[i] = m[i] + w*(gi-m[i])
		} else {
			m[i] = gi - (gi-m[i])*(1-w)
		}
		v[i] = v[i]*b2 + omb2*gi*gi
		denom := T(math.Sqrt(float64(v[i])))/bc2 + eps
		p[i] = p[i] + (-stepSize)*(m[i]/denom)
	}
}

// GradNorm returns the L2 norm of all the gradients together, √(Σ ‖g‖²), each ‖g‖ from ops.Norm
// (summed in float64; 16-bit gradients widened to float32 first, so their norm is not rounded to
// 16 bits); nil gradients are skipped.
func GradNorm(ctx context.Context, grads []*ops.Tensor) (float64, error) {
	var sum float64
	for i, g := range grads {
		if g == nil {
			continue
		}
		g = g.Detach()
		if g.DType() == ops.BFloat16 || g.DType() == ops.Float16 { // ops.Norm's result has the input's dtype
			w, err := g.AsType(ctx, ops.Float32)
			if err != nil {
				return 0, fmt.Errorf("nn.GradNorm: grads[%d]: %w", i, err)
			}
			defer w.Free()
			g = w
		}
		n, err := ops.Norm(ctx, g)
		if err != nil {
			return 0, fmt.Errorf("nn.GradNorm: grads[%d]: %w", i, err)
		}
		x, err := n.Item()
		n.Free()
		if err != nil {
			return 0, fmt.Errorf("nn.GradNorm: grads[%d]: %w", i, err)
		}
		sum += x * x
	}
	return math.Sqrt(sum), nil
}

// ClipGradNorm scales the gradients in place so that their norm (GradNorm) is at most maxNorm,
// like torch.nn.utils.clip_grad_norm_: by min(1, maxNorm/(norm + 1e-6)). It returns the norm
// before clipping.
func ClipGradNorm(ctx context.Context, grads []*ops.Tensor, maxNorm float64) (float64, error) {
	if !(maxNorm > 0) {
		return 0, argErr("nn.ClipGradNorm", "maxNorm", ops.ErrArg, "maxNorm is %v, expected > 0", maxNorm)
	}
	norm, err := GradNorm(ctx, grads)
	if err != nil {
		return 0, err
	}
	if coef := maxNorm / (norm + 1e-6); coef < 1 {
		for i, g := range grads {
			if g == nil {
				continue
			}
			if err := ScaleInPlace(ctx, g, coef); err != nil {
				return 0, fmt.Errorf("nn.ClipGradNorm: grads[%d]: %w", i, err)
			}
		}
	}
	return norm, nil
}

// ScaleInPlace multiplies the contiguous tensor t by s in place (float32, float64 or bfloat16;
// the 16-bit one computed in float32 and rounded to nearest even), on its device.
func ScaleInPlace(ctx context.Context, t *ops.Tensor, s float64) error {
	const op = "nn.ScaleInPlace"
	if ctx == nil {
		return argErr(op, "ctx", ops.ErrArg, "context is nil (use context.Background())")
	}
	if err := checkInPlace(op, []*ops.Tensor{t}, []string{"t"}, ops.Float32, ops.Float64, ops.BFloat16); err != nil {
		return err
	}
	if t.Device().Type != ops.DeviceCPU {
		return scaleCUDA(ctx, t, s)
	}
	switch t.DType() {
	case ops.Float32:
		v := ops.HostView[float32](t)
		for i := range v {
			v[i] *= float32(s)
		}
	case ops.Float64:
		v := ops.HostView[float64](t)
		for i := range v {
			v[i] *= s
		}
	case ops.BFloat16:
		v := ops.HostView[half.BFloat16](t)
		for i, x := range v {
			v[i] = half.BFloat16From(x.Float32() * float32(s))
		}
	}
	return nil
}

// ZerosLike returns zeros of t's shape and dtype on t's device.
func ZerosLike(ctx context.Context, t *ops.Tensor) (*ops.Tensor, error) {
	if t == nil {
		return nil, argErr("nn.ZerosLike", "t", ops.ErrNil, "t is nil")
	}
	z, err := ops.Zeros(t.DType(), t.Shape()...)
	if err != nil {
		return nil, err
	}
	return z.To(ctx, t.Device())
}
