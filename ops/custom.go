package ops

import (
	"context"
	"slices"
)

// Two hooks for computations that are not registered ops, such as the
// fused chains of package ops/fuse, which have several outputs, inputs of
// several dtypes and kernels generated at run time: Empty allocates their
// outputs as Op.Call allocates an op's, and RecordFunc makes each output an
// autograd node, as Op.Call records an op's.

// Empty returns a new contiguous tensor of dtype and shape on dev with
// unspecified contents, allocated for the work ctx selects (with ops/cuda,
// on the context's stream, which the tensor then belongs to): the output of
// a kernel written outside the registry, which must write all of it.
func Empty(ctx context.Context, dev Device, dtype DType, shape ...int) (*Tensor, error) {
	const op = "Empty"
	if err := checkCtx(op, ctx); err != nil {
		return nil, err
	}
	if err := checkDType(op, dtype); err != nil {
		return nil, err
	}
	if !dev.valid() {
		return nil, opErr(op, "dev", ErrDevice, "device %v is not valid", dev)
	}
	shape, err := checkShape(op, slices.Clone(shape))
	if err != nil {
		return nil, err
	}
	return allocTensor(ctx, op, dev, dtype, shape)
}

// RecordFunc makes out, a tensor just computed from inputs by a function
// that is not a registered op (out must be a leaf that records nothing yet,
// such as a tensor from Empty), an autograd node named name over inputs,
// when one of them requires grad; otherwise it does nothing. Its backward
// calls bw as an op's BackwardFunc is called (with the context of this
// call without its cancellation, the gradient of out, detached inputs, the
// zero Args and out detached) and gets one gradient per input. A function
// with several outputs records each, with a bw that gives the inputs'
// gradients from that output's gradient alone: Backward sums what reaches
// an input through several outputs. It fails with ErrGrad when out already
// records a node or requires grad, and with ErrNil for nil tensors.
func RecordFunc(ctx context.Context, name string, out *Tensor, inputs []*Tensor, bw BackwardFunc) error {
	const op = "RecordFunc"
	if err := checkCtx(op, ctx); err != nil {
		return err
	}
	if err := out.checkNil(op, "out"); err != nil {
		return err
	}
	for _, t := range inputs {
		if err := t.checkNil(op, "inputs"); err != nil {
			return err
		}
	}
	if bw == nil {
		return opErr(op, "bw", ErrArg, "bw is nil")
	}
	if !anyRequiresGrad(inputs) {
		return nil
	}
	if out.node != nil || out.requiresGrad.Load() {
		return opErr(op, "out", ErrGrad, "out already records a node or requires grad; pass a fresh output")
	}
	ins := slices.Clone(inputs)
	fwd := context.WithoutCancel(ctx)
	out.node = &node{name: name, inputs: ins, ctx: fwd, backward: func(_ context.Context, g *Tensor) ([]*Tensor, error) {
		det := make([]*Tensor, len(ins))
		for i, t := range ins {
			det[i] = t.Detach()
		}
		return bw(fwd, g, det, Args{}, out.Detach())
	}}
	out.requiresGrad.Store(true)
	return nil
}
