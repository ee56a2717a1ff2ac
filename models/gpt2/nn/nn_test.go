package nn

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

// The dtypes the ops claim (float16 must be an ops.ErrDType error).
var dtypes = []ops.DType{ops.Float32, ops.Float64, ops.BFloat16}

func TestGELU(t *testing.T) {
	optest.Run(t, optest.Spec{
		Name:   "GELU",
		Call:   func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return GELU(ctx, in[0]) },
		Ref:    optest.Elementwise(func(v []float64) float64 { return gelu(v[0]) }),
		Inputs: 1,
		DTypes: dtypes,
		Lo:     -4, Hi: 4,
	})
}

func TestGELUBackward(t *testing.T) {
	optest.Run(t, optest.Spec{
		Name: "GELUBackward",
		Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			return geluBackwardOp.Call(ctx, in, ops.Args{})
		},
		Ref:    optest.Elementwise(func(v []float64) float64 { return v[0] * geluGrad(v[1]) }),
		Inputs: 2,
		DTypes: dtypes,
		NoGrad: true,
		Lo:     -4, Hi: 4,
	})
}

// TestGELUValues pins GELU to values torch.nn.functional.gelu(x, approximate="tanh") gives.
func TestGELUValues(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{{0, 0}, {1, 0.8411919906082768}, {-1, -0.15880800939172324}} {
		if got := gelu(c.x); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("gelu(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

func TestBiasAdd(t *testing.T) {
	optest.Run(t, optest.Spec{
		Name: "BiasAdd",
		Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) { return BiasAdd(ctx, in[0], in[1]) },
		Ref: func(in []optest.Values) optest.Values {
			x, b := in[0], in[1]
			out := optest.Values{Shape: x.Shape, Data: make([]float64, len(x.Data))}
			for i := range x.Data {
				out.Data[i] = x.Data[i] + b.Data[i%len(b.Data)]
			}
			return out
		},
		Shapes:     [][][]int{{{3, 4}, {4}}, {{2, 3, 5}, {5}}, {{0, 3}, {3}}, {{1, 1}, {1}}, {{67, 65}, {65}}},
		GradShapes: [][]int{{3, 4}, {4}},
		DTypes:     dtypes,
	})
}

// linearRef is x·wᵀ + b (b optional).
func linearRef(in []optest.Values) optest.Values {
	x, w := in[0], in[1]
	o, k := w.Shape[0], w.Shape[1]
	rows := len(x.Data) / max(k, 1)
	if k == 0 {
		rows = 1
		for _, d := range x.Shape[:len(x.Shape)-1] {
			rows *= d
		}
	}
	shape := append(append([]int{}, x.Shape[:len(x.Shape)-1]...), o)
	out := optest.Values{Shape: shape, Data: make([]float64, rows*o)}
	for r := range rows {
		for j := range o {
			s := 0.0
			if len(in) > 2 {
				s = in[2].Data[j]
			}
			for i := range k {
				s += x.Data[r*k+i] * w.Data[j*k+i]
			}
			out.Data[r*o+j] = s
		}
	}
	return out
}

func TestLinear(t *testing.T) {
	optest.Run(t, optest.Spec{
		Name: "Linear",
		Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			if in[2] == nil { // Linear's nil bias means none (TestLinearNoBias): not this spec's case
				return nil, fmt.Errorf("TestLinear: bias is nil (Linear would run without one): %w", ops.ErrNil)
			}
			return Linear(ctx, in[0], in[1], in[2])
		},
		Ref: linearRef,
		Shapes: [][][]int{{{3, 4}, {5, 4}, {5}}, {{2, 3, 4}, {5, 4}, {5}}, {{0, 4}, {3, 4}, {3}},
			{{2, 0}, {3, 0}, {3}}, {{33, 65}, {17, 65}, {17}}},
		GradShapes: [][]int{{2, 3}, {4, 3}, {4}},
		DTypes:     dtypes,
		Tol:        optest.MatMulTolerance,
	})
}

func TestLinearNoBias(t *testing.T) {
	optest.Run(t, optest.Spec{
		Name: "LinearNoBias",
		Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			return Linear(ctx, in[0], in[1], nil)
		},
		Ref:        linearRef,
		Shapes:     [][][]int{{{3, 4}, {5, 4}}, {{2, 3, 7}, {5, 7}}, {{0, 4}, {3, 4}}},
		GradShapes: [][]int{{2, 2, 3}, {4, 3}},
		DTypes:     dtypes,
		Tol:        optest.MatMulTolerance,
	})
}

// layerNormRef is LayerNorm in float64 with eps.
func layerNormRef(eps float64) func(in []optest.Values) optest.Values {
	return func(in []optest.Values) optest.Values {
		x, w, b := in[0], in[1], in[2]
		c := len(w.Data)
		out := optest.Values{Shape: x.Shape, Data: make([]float64, len(x.Data))}
		for r := 0; c > 0 && r < len(x.Data)/c; r++ {
			row := x.Data[r*c : (r+1)*c]
			var mean, v float64
			for _, e := range row {
				mean += e
			}
			mean /= float64(c)
			for _, e := range row {
				v += (e - mean) * (e - mean)
			}
			rstd := 1 / math.Sqrt(v/float64(c)+eps)
			for i, e := range row {
				out.Data[r*c+i] = (e-mean)*rstd*w.Data[i] + b.Data[i]
			}
		}
		return out
	}
}

func TestLayerNorm(t *testing.T) {
	const eps = 1e-5
	optest.Run(t, optest.Spec{
		Name: "LayerNorm",
		Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			return LayerNorm(ctx, in[0], in[1], in[2], eps)
		},
		Ref: layerNormRef(eps),
		Shapes: [][][]int{{{3, 4}, {4}, {4}}, {{2, 3, 5}, {5}, {5}}, {{0, 4}, {4}, {4}}, {{1, 1}, {1}, {1}},
			{{5, 130}, {130}, {130}}, {{3, 1031}, {1031}, {1031}}},
		GradShapes: [][]int{{3, 5}, {5}, {5}},
		DTypes:     dtypes,
	})
}

func TestEmbedding(t *testing.T) {
	optest.Run(t, optest.Spec{
		Name: "Embedding",
		Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			return Embedding(ctx, in[0], in[1], in[2])
		},
		Ref: func(in []optest.Values) optest.Values {
			tok, wte, wpe := in[0], in[1], in[2]
			b, tt, c := tok.Shape[0], tok.Shape[1], wte.Shape[1]
			out := optest.Values{Shape: []int{b, tt, c}, Data: make([]float64, b*tt*c)}
			for r, v := range tok.Data {
				for i := range c {
					out.Data[r*c+i] = wte.Data[int(v)*c+i] + wpe.Data[(r%tt)*c+i]
				}
			}
			return out
		},
		Shapes: [][][]int{{{2, 3}, {5, 4}, {6, 4}}, {{0, 3}, {5, 4}, {3, 4}}, {{1, 1}, {5, 1}, {1, 1}},
			{{3, 5}, {7, 6}, {5, 6}}, {{2, 9}, {11, 300}, {12, 300}}},
		GradShapes: [][]int{{2, 3}, {5, 4}, {4, 4}},
		Index:      map[int]int{0: 5},
		DTypes:     dtypes,
	})
}

func TestCausalSelfAttention(t *testing.T) {
	const nHead = 2
	optest.Run(t, optest.Spec{
		Name: "CausalSelfAttention",
		Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			return CausalSelfAttention(ctx, in[0], nHead)
		},
		Ref:        attentionRef(nHead),
		Shapes:     [][][]int{{{2, 3, 12}}, {{1, 5, 6}}, {{0, 3, 6}}, {{2, 0, 6}}, {{2, 17, 24}}, {{1, 40, 6}}},
		GradShapes: [][]int{{2, 3, 12}},
		DTypes:     dtypes,
		Lo:         -2, Hi: 2,
	})
}

// attentionRef is causal attention in float64, written apart from the kernels: scores, mask,
// softmax, weighted sum.
func attentionRef(nHead int) func(in []optest.Values) optest.Values {
	return func(in []optest.Values) optest.Values {
		x := in[0]
		b, tt, c := x.Shape[0], x.Shape[1], x.Shape[2]/3
		d := c / nHead
		out := optest.Values{Shape: []int{b, tt, c}, Data: make([]float64, b*tt*c)}
		at := func(bi, t, part, h, i int) float64 { return x.Data[(bi*tt+t)*3*c+part*c+h*d+i] }
		for bi := range b {
			for h := range nHead {
				for t := range tt {
					s := make([]float64, tt)
					for j := range tt {
						s[j] = math.Inf(-1)
						if j <= t {
							s[j] = 0
							for i := range d {
								s[j] += at(bi, t, 0, h, i) * at(bi, j, 1, h, i)
							}
							s[j] /= math.Sqrt(float64(d))
						}
					}
					m := math.Inf(-1)
					for _, v := range s {
						m = max(m, v)
					}
					var z float64
					for j := range s {
						s[j] = math.Exp(s[j] - m)
						z += s[j]
					}
					for j := range s {
						for i := range d {
							out.Data[(bi*tt+t)*c+h*d+i] += s[j] / z * at(bi, j, 2, h, i)
						}
					}
				}
			}
		}
		return out
	}
}

func TestCrossEntropy(t *testing.T) {
	optest.Run(t, optest.Spec{
		Name: "CrossEntropy",
		Call: func(ctx context.Context, in []*ops.Tensor) (*ops.Tensor, error) {
			return CrossEntropy(ctx, in[0], in[1])
		},
		Ref:        crossEntropyRef,
		Shapes:     [][][]int{{{3, 5}, {3}}, {{2, 3, 7}, {2, 3}}, {{1, 5}, {1}}, {{4, 1030}, {4}}, {{70, 9}, {70}}},
		GradShapes: [][]int{{3, 5}, {3}},
		Index:      map[int]int{1: 5},
		DTypes:     dtypes,
		Lo:         -3, Hi: 3,
	})
}

// crossEntropyRef is the mean of -log softmax(logits)[target] over the targets that are not -1.
func crossEntropyRef(in []optest.Values) optest.Values {
	x, tg := in[0], in[1]
	v := x.Shape[len(x.Shape)-1]
	var sum float64
	n := 0
	for r, t := range tg.Data {
		if t == IgnoreIndex {
			continue
		}
		row := x.Data[r*v : (r+1)*v]
		var z float64
		for _, e := range row {
			z += math.Exp(e)
		}
		sum += math.Log(z) - row[int(t)]
		n++
	}
	return optest.Values{Shape: []int{}, Data: []float64{sum / float64(n)}}
}
