package ops

import (
	"context"
	"slices"
)

// Helpers of the tests of multi-output autograd nodes (multiout_test.go):
// empty allocates outputs as the dispatcher does, and recordFunc records
// them as one node, as MultiOp.Call does, for computations the tests make
// of ops.

// empty returns a new contiguous tensor of dtype and shape on dev with
// unspecified contents, allocated for the work ctx selects (with ops/cuda,
// on the context's stream, which the tensor then belongs to): the output of
// a kernel written outside the registry, which must write all of it.
func empty(ctx context.Context, dev Device, dtype DType, shape ...int) (*Tensor, error) {
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

// recordFunc makes outs, the tensors just computed from inputs by a
// function that is not a registered op (leaves that record nothing yet,
// such as tensors from Empty), the outputs of one autograd node named name
// over inputs, when one of the inputs requires grad; otherwise it does
// nothing. Backward runs the node once, after everything that used any of
// its outputs, calling bw with the gradients of all of them; it does not
// keep the outputs alive (outputs nothing uses can be freed). It fails with
// ErrArg when outs is empty, lists a tensor twice or an input, or bw is
// nil, ErrNil for a nil tensor, and ErrGrad when an output already records
// a node or requires grad.
func recordFunc(ctx context.Context, name string, outs, inputs []*Tensor, bw FuncBackward) error {
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
