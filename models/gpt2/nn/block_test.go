package nn

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// block is a GPT-2 forward pass of one layer at GPT-2 small's width (C 768, 12 heads of 64) on a
// short sequence, with the LM head tied to wte: every op of the package in the order the model
// uses them.
type block struct {
	wte, wpe, ln1w, ln1b, attnW, attnB, projW, projB, ln2w, ln2b, fcW, fcB, fc2W, fc2B *ops.Tensor
}

const (
	blockB, blockT, blockC, blockH, blockV = 2, 17, 768, 12, 301
)

func newBlock(t testing.TB, dtype ops.DType, dev ops.Device) (*block, []*ops.Tensor) {
	w := func(seed uint64, scale float64, shape ...int) *ops.Tensor {
		x := uniform(t, seed, dtype, dev, -scale, scale, shape...)
		if err := x.SetRequiresGrad(true); err != nil {
			t.Fatal(err)
		}
		return x
	}
	C := blockC
	b := &block{
		wte: w(1, 0.05, blockV, C), wpe: w(2, 0.02, blockT+3, C),
		ln1w: w(3, 1, C), ln1b: w(4, 0.1, C),
		attnW: w(5, 0.04, 3*C, C), attnB: w(6, 0.02, 3*C),
		projW: w(7, 0.04, C, C), projB: w(8, 0.02, C),
		ln2w: w(9, 1, C), ln2b: w(10, 0.1, C),
		fcW: w(11, 0.04, 4*C, C), fcB: w(12, 0.02, 4*C),
		fc2W: w(13, 0.02, C, 4*C), fc2B: w(14, 0.02, C),
	}
	return b, []*ops.Tensor{b.wte, b.wpe, b.ln1w, b.ln1b, b.attnW, b.attnB, b.projW, b.projB, b.ln2w, b.ln2b, b.fcW, b.fcB, b.fc2W, b.fc2B}
}

func (b *block) loss(ctx context.Context, tok, tgt *ops.Tensor) (*ops.Tensor, error) {
	x, err := Embedding(ctx, tok, b.wte, b.wpe)
	if err != nil {
		return nil, err
	}
	h, err := LayerNorm(ctx, x, b.ln1w, b.ln1b, 1e-5)
	if err != nil {
		return nil, err
	}
	if h, err = Linear(ctx, h, b.attnW, b.attnB); err != nil {
		return nil, err
	}
	if h, err = CausalSelfAttention(ctx, h, blockH); err != nil {
		return nil, err
	}
	if h, err = Linear(ctx, h, b.projW, b.projB); err != nil {
		return nil, err
	}
	if x, err = ops.Axpby(ctx, 1, x, 1, h); err != nil {
		return nil, err
	}
	if h, err = LayerNorm(ctx, x, b.ln2w, b.ln2b, 1e-5); err != nil {
		return nil, err
	}
	if h, err = Linear(ctx, h, b.fcW, b.fcB); err != nil {
		return nil, err
	}
	if h, err = GELU(ctx, h); err != nil {
		return nil, err
	}
	if h, err = Linear(ctx, h, b.fc2W, b.fc2B); err != nil {
		return nil, err
	}
	if x, err = ops.Axpby(ctx, 1, x, 1, h); err != nil {
		return nil, err
	}
	logits, err := Linear(ctx, x, b.wte, nil)
	if err != nil {
		return nil, err
	}
	return CrossEntropy(ctx, logits, tgt)
}

// run returns the loss and the parameters' gradients of the block on dev.
func runBlock(t testing.TB, dtype ops.DType, dev ops.Device) (float64, [][]float64) {
	ctx := context.Background()
	b, params := newBlock(t, dtype, dev)
	tv, gv := make([]int32, blockB*blockT), make([]int32, blockB*blockT)
	for i := range tv {
		tv[i] = int32((i*37 + 11) % blockV)
		gv[i] = int32((i*53 + 5) % blockV)
	}
	gv[3] = IgnoreIndex
	loss, err := b.loss(ctx, tokens(t, dev, tv, blockB, blockT), tokens(t, dev, gv, blockB, blockT))
	if err == nil {
		err = loss.Backward(ctx)
	}
	if err != nil {
		t.Fatalf("%v %v: %v", dtype, dev, err)
	}
	grads := make([][]float64, len(params))
	for i, p := range params {
		if p.Grad() == nil {
			t.Fatalf("%v %v: parameter %d has no gradient", dtype, dev, i)
		}
		if !p.Grad().IsContiguous() { // AdamW updates in place
			t.Fatalf("%v %v: parameter %d's gradient is not contiguous (strides %v)", dtype, dev, i, p.Grad().Strides())
		}
		grads[i] = values(t, p.Grad())
	}
	return values(t, loss)[0], grads
}

// cosine returns the cosine similarity of a and b, and the largest |a_i - b_i| relative to b's
// largest magnitude.
func cosine(a, b []float64) (cos, rel float64) {
	var ab, aa, bb, maxb, maxd float64
	for i := range a {
		ab += a[i] * b[i]
		aa += a[i] * a[i]
		bb += b[i] * b[i]
		maxb = max(maxb, math.Abs(b[i]))
		maxd = max(maxd, math.Abs(a[i]-b[i]))
	}
	return ab / math.Sqrt(aa*bb), maxd / maxb
}

// TestBlockOnCPU checks the block itself (and this comparison) on the CPU: float32 and bfloat16
// against float64.
func TestBlockOnCPU(t *testing.T) {
	compareBlock(t, ops.Float64, ops.CPU, []ops.DType{ops.Float32, ops.BFloat16}, ops.CPU)
}

// TestBlockOnGPU runs the block forward and backward on the GPU and the CPU (float64 arithmetic)
// and compares the loss and every gradient: float32 within 1e-4 (relative to the largest
// element), bfloat16 loss within 1e-2 and cosine >= 0.99.
func TestBlockOnGPU(t *testing.T) {
	devs := devices()
	if len(devs) < 2 {
		t.Skip("no CUDA device")
	}
	compareBlock(t, ops.Float32, ops.CPU, []ops.DType{ops.Float32, ops.BFloat16}, devs[1])
}

// compareBlock compares the block in each of dtypes on dev with the block in refDType on refDev.
func compareBlock(t *testing.T, refDType ops.DType, refDev ops.Device, dtypes []ops.DType, dev ops.Device) {
	wantLoss, wantG := runBlock(t, refDType, refDev)
	for _, dtype := range dtypes {
		t.Run(fmt.Sprint(dtype), func(t *testing.T) {
			gotLoss, gotG := runBlock(t, dtype, dev)
			t.Logf("%v on %v: loss %.7f, %v on %v: %.7f", dtype, dev, gotLoss, refDType, refDev, wantLoss)
			lossTol, relTol, cosTol := 1e-5, 1e-4, 0.99999
			if dtype == ops.BFloat16 {
				lossTol, relTol, cosTol = 1e-2, math.Inf(1), 0.99
			}
			if math.Abs(gotLoss-wantLoss) > lossTol*math.Abs(wantLoss) {
				t.Errorf("%v on %v: loss %v, %v on %v: %v", dtype, dev, gotLoss, refDType, refDev, wantLoss)
			}
			for i := range wantG {
				cos, rel := cosine(gotG[i], wantG[i])
				t.Logf("%v: parameter %d: cosine %.6f, max difference %.2e of the largest", dtype, i, cos, rel)
				if !(cos >= cosTol) || rel > relTol {
					t.Errorf("%v: parameter %d's gradient: cosine %v, max difference %v of the largest", dtype, i, cos, rel)
				}
			}
		})
	}
}
