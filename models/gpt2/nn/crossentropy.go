package nn

import (
	"context"
	"math"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// crossEntropyOp is CrossEntropy: inputs logits and targets; one 0-d output. Its backward is
// crossEntropyBackwardOp.
var crossEntropyOp = ops.RegisterMultiOp("nn.CrossEntropy", crossEntropyCPU)

// crossEntropyBackwardOp gives the gradient of the logits from gradOut (0-d, the loss's dtype),
// logits and targets (attr: ceDims); it is not differentiable.
var crossEntropyBackwardOp = ops.RegisterMultiOp("nn.CrossEntropyBackward", crossEntropyBackwardCPU)

// IgnoreIndex is the target CrossEntropy leaves out of the loss.
const IgnoreIndex = -1

// ceDims are the sizes of one CrossEntropy call: N rows of V logits.
type ceDims struct{ N, V int }

// CrossEntropy returns the mean over the targets that are not IgnoreIndex of
// logsumexp(logits[r]) - logits[r, targets[r]], for logits [..., V] and targets [...]
// (ops.Int32): a 0-d tensor, float64 for float64 logits and float32 otherwise (see the package
// doc).
func CrossEntropy(ctx context.Context, logits, targets *ops.Tensor) (*ops.Tensor, error) {
	const op = "nn.CrossEntropy"
	outs, err := crossEntropyOp.Call(ctx, "", []*ops.Tensor{logits, targets}, func(in []*ops.Tensor, grad bool) ([]ops.Output, any, ops.FuncBackward, error) {
		x, tg := in[0], in[1]
		if err := checkFloat(op, "logits", x); err != nil {
			return nil, nil, nil, err
		}
		if err := checkInt32(op, "targets", tg); err != nil {
			return nil, nil, nil, err
		}
		if x.Dim() < 1 || !slices.Equal(tg.Shape(), x.Shape()[:x.Dim()-1]) {
			return nil, nil, nil, shapeErr(op, "targets", "logits has shape %v and targets %v: expected logits [..., V] and targets [...] (logits' shape without its last dimension)", x.Shape(), tg.Shape())
		}
		d := ceDims{N: tg.Numel(), V: x.Shape()[x.Dim()-1]}
		var bw ops.FuncBackward
		if grad {
			bw = func(ctx context.Context, grads, in, _ []*ops.Tensor) ([]*ops.Tensor, error) {
				g, err := crossEntropyBackwardOp.Call(ctx, "", []*ops.Tensor{grads[0], in[0], in[1]}, func(in []*ops.Tensor, _ bool) ([]ops.Output, any, ops.FuncBackward, error) {
					return []ops.Output{{Shape: in[1].Shape(), DType: in[1].DType()}}, d, nil, nil
				})
				if err != nil {
					return nil, err
				}
				return []*ops.Tensor{g[0], nil}, nil
			}
		}
		return []ops.Output{{Shape: []int{}, DType: lossDType(x.DType())}}, d, bw, nil
	})
	if err != nil {
		return nil, err
	}
	return outs[0], nil
}

// rowLSE returns logsumexp of row r of x (V elements).
func rowLSE(x vec, r, v int) float64 {
	m := math.Inf(-1)
	for i := range v {
		m = max(m, x.at(r*v+i))
	}
	var s float64
	for i := range v {
		s += math.Exp(x.at(r*v+i) - m)
	}
	return m + math.Log(s)
}

func crossEntropyCPU(ctx context.Context, outs, in []*ops.Tensor, attr any) error {
	d := attr.(ceDims)
	c, release, err := contiguous(ctx, in)
	if err != nil {
		return err
	}
	defer release()
	x, tg := hostVec(c[0]), ops.HostView[int32](c[1])
	var sum float64
	n := 0
	for r, t := range tg {
		if t == IgnoreIndex {
			continue
		}
		if t < 0 || int(t) >= d.V {
			return argErr("nn.CrossEntropy", "targets", ops.ErrArg, "targets[%d] (row-major) is %d, expected a class in [0, %d) or %d (ignored)", r, t, d.V, IgnoreIndex)
		}
		sum += rowLSE(x, r, d.V) - x.at(r*d.V+int(t))
		n++
	}
	hostVec(outs[0]).set(0, sum/float64(n)) // NaN when n == 0, as torch
	return nil
}

func crossEntropyBackwardCPU(ctx context.Context, outs, in []*ops.Tensor, attr any) error {
	d := attr.(ceDims)
	c, release, err := contiguous(ctx, in)
	if err != nil {
		return err
	}
	defer release()
	g, x, tg, dx := hostVec(c[0]).at(0), hostVec(c[1]), ops.HostView[int32](c[2]), hostVec(outs[0])
	n := 0
	for _, t := range tg {
		if t != IgnoreIndex {
			n++
		}
	}
	for r, t := range tg {
		if t == IgnoreIndex || t < 0 || int(t) >= d.V {
			for i := range d.V {
				dx.set(r*d.V+i, 0)
			}
			continue
		}
		lse := rowLSE(x, r, d.V)
		for i := range d.V {
			p := math.Exp(x.at(r*d.V+i) - lse)
			if i == int(t) {
				p--
			}
			dx.set(r*d.V+i, g*p/float64(n))
		}
	}
	return nil
}
