package ops

import (
	"context"
	"slices"
	"weak"
)

// Two hooks for computations that are not registered ops, such as the
// fused chains of package ops/fuse, which have several outputs, inputs of
// several dtypes and kernels generated at run time: Empty allocates their
// outputs as Op.Call allocates an op's, and RecordFunc makes all the outputs
// of one call one autograd node, as Op.Call records an op's.

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

// FuncBackward computes the gradients of the inputs of a function
// recorded by RecordFunc from the gradients of its outputs. It gets the
// context of RecordFunc's call without its cancellation (with ops/cuda, the
// forward's stream), one gradient per output (with the output's shape,
// dtype and device; nil for an output that received none, and at least one
// is not nil), the inputs detached, and the outputs detached (nil where the
// gradient is nil). It returns one gradient (or nil) per input, with the
// input's shape, dtype and device, computed with ops called with ctx; like
// an op's BackwardFunc, it returns gradients it has just computed, one of
// grads or a view of one, and keeps none of them.
type FuncBackward func(ctx context.Context, grads, in, outs []*Tensor) ([]*Tensor, error)

// RecordFunc makes outs, the tensors just computed from inputs by a
// function that is not a registered op (leaves that record nothing yet,
// such as tensors from Empty), the outputs of one autograd node named name
// over inputs, when one of the inputs requires grad; otherwise it does
// nothing. Backward runs the node once, after everything that used any of
// its outputs, calling bw with the gradients of all of them; it does not
// keep the outputs alive (outputs nothing uses can be freed). It fails with
// ErrArg when outs is empty, lists a tensor twice or an input, or bw is
// nil, ErrNil for a nil tensor, and ErrGrad when an output already records
// a node or requires grad.
func RecordFunc(ctx context.Context, name string, outs, inputs []*Tensor, bw FuncBackward) error {
	const op = "RecordFunc"
	if err := checkCtx(op, ctx); err != nil {
		return err
	}
	if len(outs) == 0 {
		return opErr(op, "outs", ErrArg, "no outputs; pass the function's outputs")
	}
	for _, t := range outs {
		if err := t.checkNil(op, "outs"); err != nil {
			return err
		}
	}
	for _, t := range inputs {
		if err := t.checkNil(op, "inputs"); err != nil {
			return err
		}
	}
	if bw == nil {
		return opErr(op, "bw", ErrArg, "bw is nil")
	}
	for k, t := range outs {
		if j := slices.Index(outs, t); j < k {
			return opErr(op, "outs", ErrArg, "output %d is output %d again; pass each output once", k, j)
		}
		if j := slices.Index(inputs, t); j >= 0 {
			return opErr(op, "outs", ErrArg, "output %d is input %d; pass fresh outputs", k, j)
		}
	}
	if !anyRequiresGrad(inputs) {
		return nil
	}
	for k, t := range outs {
		if t.node != nil || t.requiresGrad.Load() {
			return opErr(op, "outs", ErrGrad, "output %d already records a node or requires grad; pass fresh outputs", k)
		}
	}
	recordOutputs(ctx, name, outs, inputs, bw)
	return nil
}

// recordOutputs makes outs the outputs of one autograd node named name over
// inputs, whose backward calls bw (RecordFunc's and MultiOp.Call's node).
func recordOutputs(ctx context.Context, name string, outs, inputs []*Tensor, bw FuncBackward) {
	ins := slices.Clone(inputs)
	fwd := context.WithoutCancel(ctx)
	weakOuts := make([]weak.Pointer[Tensor], len(outs))
	for k, t := range outs {
		weakOuts[k] = weak.Make(t)
	}
	n := &node{name: name, inputs: ins, nOut: len(outs), ctx: fwd, backward: func(_ context.Context, gs []*Tensor) ([]*Tensor, error) {
		det := make([]*Tensor, len(ins))
		for i, t := range ins {
			det[i] = t.Detach()
		}
		// An output with a gradient is reachable: from the tensor
		// Backward started at or from the node that consumed it.
		o := make([]*Tensor, len(gs))
		for k, g := range gs {
			if g != nil {
				o[k] = weakOuts[k].Value().Detach()
			}
		}
		return bw(fwd, slices.Clone(gs), det, o)
	}}
	for k, t := range outs {
		t.node, t.out = n, k
		t.requiresGrad.Store(true)
	}
}
