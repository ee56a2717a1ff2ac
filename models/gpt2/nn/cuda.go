package nn

// #include "models/gpt2/nn/nn.h"
import "C"

import (
	"context"
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// The CUDA kernels (nn_embedding.cu, nn_layernorm.cu, nn_elementwise.cu, nn_attention.cu,
// nn_crossentropy.cu, nn_optim.cu; C API in nn.h), registered on the ops as any
// op's CUDA kernel is (ops/examples/square), and the in-place updates' launches. Each launches
// on the stream the context chooses (cuda.NewLaunch), after the work that made its tensors.

func init() {
	geluOp.RegisterKernel(ops.DeviceCUDA, ops.ContiguousInputs(geluCUDA))
	geluBackwardOp.RegisterKernel(ops.DeviceCUDA, ops.ContiguousInputs(geluBackwardCUDA))
	biasAddOp.RegisterKernel(ops.DeviceCUDA, ops.ContiguousInputs(biasAddCUDA))
	biasGradOp.RegisterKernel(ops.DeviceCUDA, ops.ContiguousInputs(biasGradCUDA))
	layerNormOp.RegisterKernel(ops.DeviceCUDA, ops.ContiguousInputs(layerNormCUDA))
	layerNormBackwardOp.RegisterKernel(ops.DeviceCUDA, layerNormBackwardCUDA)
	attentionOp.RegisterKernel(ops.DeviceCUDA, ops.ContiguousInputs(attentionCUDA))
	attentionBackwardOp.RegisterKernel(ops.DeviceCUDA, ops.ContiguousInputs(attentionBackwardCUDA))
	embeddingOp.RegisterKernel(ops.DeviceCUDA, embeddingCUDA)
	embeddingBackwardOp.RegisterKernel(ops.DeviceCUDA, embeddingBackwardCUDA)
	crossEntropyOp.RegisterKernel(ops.DeviceCUDA, crossEntropyCUDA)
	crossEntropyBackwardOp.RegisterKernel(ops.DeviceCUDA, crossEntropyBackwardCUDA)
	scratchOp.RegisterKernel(ops.DeviceCUDA, func(context.Context, []*ops.Tensor, []*ops.Tensor, any) error { return nil })
}

// scratchOp allocates an uninitialized tensor (attr: its ops.Output) on its input's device for
// the work ctx selects: the kernels' scratch memory, freed (stream-ordered) after their launch.
var scratchOp = ops.RegisterMultiOp("nn.scratch", func(context.Context, []*ops.Tensor, []*ops.Tensor, any) error { return nil })

// scratch returns n uninitialized elements of the accumulation type of dtype (float64 for
// float64, float32 otherwise) on like's device, for ctx's stream.
func scratch(ctx context.Context, like *ops.Tensor, n int) (*ops.Tensor, error) {
	spec := ops.Output{Shape: []int{n}, DType: lossDType(like.DType())}
	outs, err := scratchOp.Call(ctx, "", []*ops.Tensor{like.Detach()}, func([]*ops.Tensor, bool) ([]ops.Output, any, ops.FuncBackward, error) {
		return []ops.Output{spec}, nil, nil, nil
	})
	if err != nil {
		return nil, fmt.Errorf("scratch memory: %w", err)
	}
	return outs[0], nil
}

func ptr(l *cuda.Launch, i int) C.nn_ptr { return C.nn_ptr(l.Ptr[i]) }
func stream(l *cuda.Launch) C.nn_ptr     { return C.nn_ptr(l.Stream) }
func ll(n int) C.longlong                { return C.longlong(n) }

func geluCUDA(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	l, err := cuda.NewLaunch(ctx, out, in[0])
	if err != nil {
		return err
	}
	return l.Check("nn GELU kernel", int(C.nn_gelu_forward(stream(l), C.int(l.Device), C.int(l.DType), ptr(l, 0), ptr(l, 1), ll(l.N))))
}

func geluBackwardCUDA(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	l, err := cuda.NewLaunch(ctx, out, in[0], in[1])
	if err != nil {
		return err
	}
	return l.Check("nn GELUBackward kernel", int(C.nn_gelu_backward(stream(l), C.int(l.Device), C.int(l.DType), ptr(l, 0), ptr(l, 1), ptr(l, 2), ll(l.N))))
}

func biasAddCUDA(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	l, err := cuda.NewLaunch(ctx, out, in[0], in[1])
	if err != nil {
		return err
	}
	c := in[1].Numel()
	n := 0
	if c > 0 {
		n = out.Numel() / c
	}
	return l.Check("nn BiasAdd kernel", int(C.nn_bias_add(stream(l), C.int(l.Device), C.int(l.DType), ptr(l, 0), ptr(l, 1), ptr(l, 2), ll(n), ll(c))))
}

func biasGradCUDA(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	l, err := cuda.NewLaunch(ctx, out, in[0])
	if err != nil {
		return err
	}
	c := out.Numel()
	n := 0
	if c > 0 {
		n = in[0].Numel() / c
	}
	return l.Check("nn BiasGrad kernel", int(C.nn_bias_grad(stream(l), C.int(l.Device), C.int(l.DType), ptr(l, 0), ptr(l, 1), ll(n), ll(c))))
}

// rowsOf returns the rows and row length of x [..., C].
func rowsOf(x *ops.Tensor) (n, c int) {
	s := x.Shape()
	c = s[len(s)-1]
	if c > 0 {
		n = x.Numel() / c
	} else {
		n = numel(s[:len(s)-1])
	}
	return n, c
}

func layerNormCUDA(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	l, err := cuda.NewLaunch(ctx, out, in[0], in[1], in[2])
	if err != nil {
		return err
	}
	n, c := rowsOf(in[0])
	return l.Check("nn LayerNorm kernel", int(C.nn_layernorm_forward(stream(l), C.int(l.Device), C.int(l.DType), ptr(l, 0), ptr(l, 1), ptr(l, 2), ptr(l, 3),
		ll(n), ll(c), C.double(args.Floats[0]))))
}

func layerNormBackwardCUDA(ctx context.Context, outs, in []*ops.Tensor, attr any) error {
	c, release, err := contiguous(ctx, in)
	if err != nil {
		return err
	}
	defer release()
	n, cols := rowsOf(c[1])
	st, err := scratch(ctx, c[1], 2*n)
	if err != nil {
		return err
	}
	defer st.Free()
	l, err := cuda.NewLaunch(ctx, outs[0], outs[1], outs[2], c[0], c[1], c[2], st)
	if err != nil {
		return err
	}
	return l.Check("nn LayerNormBackward kernels", int(C.nn_layernorm_backward(stream(l), C.int(l.Device), C.int(l.DType),
		ptr(l, 0), ptr(l, 1), ptr(l, 2), ptr(l, 3), ptr(l, 4), ptr(l, 5), ptr(l, 6), ll(n), ll(cols), C.double(attr.(float64)))))
}

// maxHeadSize is the largest head size of the CUDA attention kernels (nn_attention.cu).
const maxHeadSize = 256

func checkHeadSize(op string, d attentionDims) error {
	if d.D > maxHeadSize {
		return fmt.Errorf("%s: head size %d (C %d / %d heads) is more than the CUDA kernels' %d: %w", op, d.D, d.C, d.H, maxHeadSize, ops.ErrShape)
	}
	return nil
}

func attentionCUDA(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	d, err := attentionShape("nn.CausalSelfAttention", in[0], args.Ints[0])
	if err == nil {
		err = checkHeadSize("nn.CausalSelfAttention", d)
	}
	if err != nil {
		return err
	}
	l, err := cuda.NewLaunch(ctx, out, in[0])
	if err != nil {
		return err
	}
	return l.Check("nn CausalSelfAttention kernel", int(C.nn_attention_forward(stream(l), C.int(l.Device), C.int(l.DType), ptr(l, 0), ptr(l, 1),
		ll(d.B), ll(d.T), ll(d.H), ll(d.D))))
}

func attentionBackwardCUDA(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, args ops.Args) error {
	d, err := attentionShape("nn.CausalSelfAttentionBackward", in[1], args.Ints[0])
	if err == nil {
		err = checkHeadSize("nn.CausalSelfAttentionBackward", d)
	}
	if err != nil {
		return err
	}
	st, err := scratch(ctx, out, 2*d.B*d.H*d.T)
	if err != nil {
		return err
	}
	defer st.Free()
	l, err := cuda.NewLaunch(ctx, out, in[0], in[1], in[2], st)
	if err != nil {
		return err
	}
	return l.Check("nn CausalSelfAttentionBackward kernels", int(C.nn_attention_backward(stream(l), C.int(l.Device), C.int(l.DType),
		ptr(l, 0), ptr(l, 1), ptr(l, 2), ptr(l, 3), ptr(l, 4), ll(d.B), ll(d.T), ll(d.H), ll(d.D))))
}

func embeddingCUDA(ctx context.Context, outs, in []*ops.Tensor, attr any) error {
	d := attr.(embeddingDims)
	c, release, err := contiguous(ctx, in)
	if err != nil {
		return err
	}
	defer release()
	l, err := cuda.NewLaunch(ctx, outs[0], c[0], c[1], c[2])
	if err != nil {
		return err
	}
	return l.Check("nn Embedding kernel", int(C.nn_embedding_forward(stream(l), C.int(l.Device), C.int(l.DType), ptr(l, 0), ptr(l, 1), ptr(l, 2), ptr(l, 3),
		ll(d.B), ll(d.T), ll(d.C), ll(d.V))))
}

func embeddingBackwardCUDA(ctx context.Context, outs, in []*ops.Tensor, attr any) error {
	d := attr.(embeddingDims)
	c, release, err := contiguous(ctx, in)
	if err != nil {
		return err
	}
	defer release()
	l, err := cuda.NewLaunch(ctx, outs[0], outs[1], c[0], c[1])
	if err != nil {
		return err
	}
	return l.Check("nn EmbeddingBackward kernels", int(C.nn_embedding_backward(stream(l), C.int(l.Device), C.int(l.DType), ptr(l, 0), ptr(l, 1), ptr(l, 2), ptr(l, 3),
		ll(d.B), ll(d.T), ll(d.C), ll(d.V), ll(d.MaxT))))
}

func crossEntropyCUDA(ctx context.Context, outs, in []*ops.Tensor, attr any) error {
	d := attr.(ceDims)
	c, release, err := contiguous(ctx, in)
	if err != nil {
		return err
	}
	defer release()
	st, err := scratch(ctx, c[0], 2*d.N)
	if err != nil {
		return err
	}
	defer st.Free()
	l, err := cuda.NewLaunch(ctx, c[0], outs[0], c[1], st) // the dtype code is the logits'
	if err != nil {
		return err
	}
	return l.Check("nn CrossEntropy kernels", int(C.nn_cross_entropy_forward(stream(l), C.int(l.Device), C.int(l.DType), ptr(l, 1), ptr(l, 0), ptr(l, 2), ptr(l, 3),
		ll(d.N), ll(d.V))))
}

func crossEntropyBackwardCUDA(ctx context.Context, outs, in []*ops.Tensor, attr any) error {
	d := attr.(ceDims)
	c, release, err := contiguous(ctx, in)
	if err != nil {
		return err
	}
	defer release()
	st, err := scratch(ctx, c[1], 1)
	if err != nil {
		return err
	}
	defer st.Free()
	l, err := cuda.NewLaunch(ctx, outs[0], c[0], c[1], c[2], st)
	if err != nil {
		return err
	}
	return l.Check("nn CrossEntropyBackward kernels", int(C.nn_cross_entropy_backward(stream(l), C.int(l.Device), C.int(l.DType), ptr(l, 0), ptr(l, 1), ptr(l, 2), ptr(l, 3), ptr(l, 4),
		ll(d.N), ll(d.V))))
}

func adamwCUDA(ctx context.Context, ts []*ops.Tensor, s adamwScalars) error {
	l, err := cuda.NewLaunch(ctx, ts...)
	if err != nil {
		return err
	}
	return l.Check("nn AdamW kernel", int(C.nn_adamw(stream(l), C.int(l.Device), C.int(l.DType), ptr(l, 0), ptr(l, 1), ptr(l, 2), ptr(l, 3), ll(l.N),
		C.double(s.decay), C.double(s.beta1), C.double(s.beta2), C.double(s.eps), C.double(s.stepSize), C.double(s.bc2Sqrt))))
}

func scaleCUDA(ctx context.Context, t *ops.Tensor, s float64) error {
	l, err := cuda.NewLaunch(ctx, t)
	if err != nil {
		return err
	}
	return l.Check("nn ScaleInPlace kernel", int(C.nn_scale(stream(l), C.int(l.Device), C.int(l.DType), ptr(l, 0), ll(l.N), C.double(s))))
}
