package nn

import (
	"context"
	"math"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// attentionOp is CausalSelfAttention (argument nHead); its backward is attentionBackwardOp.
var attentionOp = ops.RegisterOp(ops.OpDef{
	Name: "nn.CausalSelfAttention",
	Args: []ops.Arg{{Name: "qkv", Kind: ops.KindTensor}, {Name: "nHead", Kind: ops.KindInt}},
	Shape: func(in []*ops.Tensor, args ops.Args) ([]int, error) {
		d, err := attentionShape("", in[0], args.Ints[0])
		if err != nil {
			return nil, err
		}
		return []int{d.B, d.T, d.C}, nil
	},
	Backward: func(ctx context.Context, g *ops.Tensor, in []*ops.Tensor, args ops.Args, out *ops.Tensor) ([]*ops.Tensor, error) {
		gq, err := attentionBackwardOp.Call(ctx, []*ops.Tensor{g, in[0], out}, args)
		return []*ops.Tensor{gq}, err
	},
	CPU: ops.ContiguousInputs(attentionCPU),
})

// attentionBackwardOp is the gradient of CausalSelfAttention's qkv from gradOut, qkv and the
// forward's output (argument nHead); it is not differentiable.
var attentionBackwardOp = ops.RegisterOp(ops.OpDef{
	Name: "nn.CausalSelfAttentionBackward",
	Args: []ops.Arg{{Name: "gradOut", Kind: ops.KindTensor}, {Name: "qkv", Kind: ops.KindTensor},
		{Name: "out", Kind: ops.KindTensor}, {Name: "nHead", Kind: ops.KindInt}},
	Shape: func(in []*ops.Tensor, args ops.Args) ([]int, error) {
		d, err := attentionShape("", in[1], args.Ints[0])
		if err != nil {
			return nil, err
		}
		want := []int{d.B, d.T, d.C}
		for i, name := range []string{"gradOut", "out"} {
			if t := in[2*i]; !slices.Equal(t.Shape(), want) {
				return nil, shapeErr("", name, "%s has shape %v, expected %v", name, t.Shape(), want)
			}
		}
		return in[1].Shape(), nil
	},
	CPU: ops.ContiguousInputs(attentionBackwardCPU),
})

// attentionDims are the sizes of one CausalSelfAttention call: C = H·D.
type attentionDims struct{ B, T, C, H, D int }

func attentionShape(op string, qkv *ops.Tensor, nHead int) (attentionDims, error) {
	if err := checkFloat(op, "qkv", qkv); err != nil {
		return attentionDims{}, err
	}
	s := qkv.Shape()
	if len(s) != 3 || s[2]%3 != 0 {
		return attentionDims{}, shapeErr(op, "qkv", "qkv has shape %v, expected [B, T, 3C]", s)
	}
	d := attentionDims{B: s[0], T: s[1], C: s[2] / 3, H: nHead}
	if nHead <= 0 || d.C%nHead != 0 {
		return attentionDims{}, argErr(op, "nHead", ops.ErrArg, "nHead is %d, expected a positive divisor of C = %d (qkv has shape %v)", nHead, d.C, s)
	}
	d.D = d.C / nHead
	return d, nil
}

// CausalSelfAttention returns the causal multi-head attention of qkv [B, T, 3C] with nHead
// heads: [B, T, C] (see the package doc).
func CausalSelfAttention(ctx context.Context, qkv *ops.Tensor, nHead int) (*ops.Tensor, error) {
	return attentionOp.Call(ctx, []*ops.Tensor{qkv}, ops.Args{Ints: []int{nHead}})
}

// probs returns the softmax row of query t of head h of batch b (keys 0..t): p[j].
func (d attentionDims) probs(qkv []float64, b, h, t int, p []float64) []float64 {
	p = p[:t+1]
	scale := 1 / math.Sqrt(float64(d.D))
	q := qkv[(b*d.T+t)*3*d.C+h*d.D:]
	m := math.Inf(-1)
	for j := range p {
		k := qkv[(b*d.T+j)*3*d.C+d.C+h*d.D:]
		var s float64
		for i := range d.D {
			s += q[i] * k[i]
		}
		p[j] = s * scale
		m = max(m, p[j])
	}
	var sum float64
	for j := range p {
		p[j] = math.Exp(p[j] - m)
		sum += p[j]
	}
	for j := range p {
		p[j] /= sum
	}
	return p
}

func attentionCPU(_ context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	d, _ := attentionShape("", in[0], args.Ints[0])
	qkv, y := floats(in[0]), make([]float64, out.Numel())
	p := make([]float64, d.T)
	for b := range d.B {
		for h := range d.H {
			for t := range d.T {
				p := d.probs(qkv, b, h, t, p)
				o := y[(b*d.T+t)*d.C+h*d.D:]
				for j, pj := range p {
					v := qkv[(b*d.T+j)*3*d.C+2*d.C+h*d.D:]
					for i := range d.D {
						o[i] += pj * v[i]
					}
				}
			}
		}
	}
	storeAll(out, y)
	return nil
}

func attentionBackwardCPU(_ context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	d, _ := attentionShape("", in[1], args.Ints[0])
	g, qkv := floats(in[0]), floats(in[1])
	dqkv := make([]float64, out.Numel())
	scale := 1 / math.Sqrt(float64(d.D))
	p, dp := make([]float64, d.T), make([]float64, d.T)
	row := func(b, t, part, h int) int { return (b*d.T+t)*3*d.C + part*d.C + h*d.D }
	for b := range d.B {
		for h := range d.H {
			for t := range d.T {
				p := d.probs(qkv, b, h, t, p)
				gt := g[(b*d.T+t)*d.C+h*d.D:]
				// dv[j] += p[j]·g[t]; dp[j] = g[t]·v[j]; ds = p·(dp - Σ p·dp).
				var dot float64
				for j, pj := range p {
					v, dv := qkv[row(b, j, 2, h):], dqkv[row(b, j, 2, h):]
					var s float64
					for i := range d.D {
						dv[i] += pj * gt[i]
						s += gt[i] * v[i]
					}
					dp[j] = s
					dot += pj * s
				}
				q, dq := qkv[row(b, t, 0, h):], dqkv[row(b, t, 0, h):]
				for j, pj := range p {
					ds := pj * (dp[j] - dot) * scale
					k, dk := qkv[row(b, j, 1, h):], dqkv[row(b, j, 1, h):]
					for i := range d.D {
						dq[i] += ds * k[i]
						dk[i] += ds * q[i]
					}
				}
			}
		}
	}
	storeAll(out, dqkv)
	return nil
}
