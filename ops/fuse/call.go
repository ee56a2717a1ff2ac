package fuse

import (
	"context"
	"errors"
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse/driver"
)

// Call computes the chain on the inputs (In(0), In(1), ...; all on one
// device, of any dtypes and layouts, broadcasting to one shape) with the
// scalar arguments (Arg(0), Arg(1), ...) and returns the outputs: new
// contiguous tensors of the broadcast shape on the inputs' device, each of
// its Expr's dtype. On a GPU it queues one kernel on the stream ctx
// chooses (with ops/cuda, cuda.WithStream) and does not wait for it, so it
// can be captured into a CUDA graph like any op; on the CPU it computes
// the outputs before returning. When an input requires grad, the call
// records one autograd node over all its outputs, whose backward is one
// fused kernel too.
//
// Errors (*ops.OpError, naming the chain and, for dtype errors, the step)
// wrap ops.ErrArg (counts), ops.ErrNil, ops.ErrFreed, ops.ErrDevice,
// ops.ErrShape (shapes that do not broadcast), ops.ErrDType (operands of
// different dtypes) or ops.ErrNoKernel (no kernel for the device, registered
// by importing ops/fuse/fusecuda for CUDA); a kernel that does not compile
// returns the compiler's error. A failed call leaves the caches as they
// were.
func (c *Chain) Call(ctx context.Context, inputs []*ops.Tensor, scalars ...float64) ([]*ops.Tensor, error) {
	if ctx == nil {
		return nil, c.errorf(ops.ErrArg, "context is nil (use context.Background())")
	}
	if len(inputs) != c.nIn || len(scalars) != c.nArg {
		return nil, c.errorf(ops.ErrArg, "got %d tensor inputs and %d scalar arguments, expected %d and %d", len(inputs), len(scalars), c.nIn, c.nArg)
	}
	outs, err := driver.ChainOp.Call(ctx, "fuse."+c.name, inputs, func(in []*ops.Tensor, grad bool) ([]ops.Output, *driver.Launch, ops.FuncBackward, error) {
		return c.prepare(in, scalars, grad)
	})
	if err != nil && errors.Is(err, ops.ErrNoKernel) && inputs[0].Device().Type != ops.DeviceCPU {
		return nil, fmt.Errorf("%w (import ops/fuse/fusecuda for CUDA)", err)
	}
	return outs, err
}

// prepare types and plans a call on checked inputs: the outputs, the
// Launch its kernel gets and, with grad, its backward.
func (c *Chain) prepare(inputs []*ops.Tensor, scalars []float64, grad bool) ([]ops.Output, *driver.Launch, ops.FuncBackward, error) {
	var inBuf [8]ops.DType
	inT := inBuf[:0]
	for i, t := range inputs {
		if d := t.DType(); d < ops.Float32 || d > ops.BFloat16 {
			return nil, nil, nil, c.errorf(ops.ErrDType, "input %d has dtype %v: fused chains compute on float32, float64, float16 or bfloat16", i, d)
		}
		inT = append(inT, t.DType())
	}
	shape, err := c.broadcast(inputs)
	if err != nil {
		return nil, nil, nil, err
	}
	// The vector width depends on the outputs' dtypes too: type first.
	ty, err := c.typed(inT)
	if err != nil {
		return nil, nil, nil, err
	}
	p := planFor(shape, inputs, inT, ty.out)
	s, err := c.spec(inT, p)
	if err != nil {
		return nil, nil, nil, err
	}
	var bw ops.FuncBackward
	if grad {
		if bw, err = c.backwardFunc(s, len(c.outputs), scalars); err != nil {
			return nil, nil, nil, err
		}
	}
	outs := make([]ops.Output, len(s.OutDTypes))
	for k, d := range s.OutDTypes {
		outs[k] = ops.Output{Shape: shape, DType: d}
	}
	l := &driver.Launch{Spec: &s.Spec, N: p.n, Dims: p.dims, Strides: p.strides, Consts: c.consts, Args: scalars}
	return outs, l, bw, nil
}

// Call1 is Call for a chain with one output.
func (c *Chain) Call1(ctx context.Context, inputs []*ops.Tensor, scalars ...float64) (*ops.Tensor, error) {
	if len(c.outputs) != 1 {
		return nil, c.errorf(ops.ErrArg, "Call1 on a chain with %d outputs; use Call", len(c.outputs))
	}
	outs, err := c.Call(ctx, inputs, scalars...)
	if err != nil {
		return nil, err
	}
	return outs[0], nil
}

// SpecFor returns the spec (and so the generated source) that Call would
// use for inputs of the given dtypes with n elements each, contiguous at
// an aligned offset (the Vector class): for tests and tools that inspect
// the generated code.
func (c *Chain) SpecFor(n int, dtypes ...ops.DType) (*driver.Spec, error) {
	return c.SpecForLayout(driver.Vector, 0, n, dtypes...)
}

// SpecForLayout is SpecFor for a layout class; rank is the number of
// merged dimensions of the Strided class.
func (c *Chain) SpecForLayout(layout driver.LayoutClass, rank, n int, dtypes ...ops.DType) (*driver.Spec, error) {
	s, err := c.specFor(layout, rank, n, dtypes)
	if err != nil {
		return nil, err
	}
	return &s.Spec, nil
}

// specFor is SpecForLayout's spec with this package's part.
func (c *Chain) specFor(layout driver.LayoutClass, rank, n int, dtypes []ops.DType) (*spec, error) {
	if len(dtypes) != c.nIn {
		return nil, c.errorf(ops.ErrArg, "got %d dtypes, expected %d", len(dtypes), c.nIn)
	}
	ty, err := c.typed(dtypes)
	if err != nil {
		return nil, err
	}
	p := plan{n: n, layout: layout, vec: vecWidth(dtypes, ty.out), index64: n > 1<<31-1}
	if layout == driver.Strided {
		p.dims = make([]int, rank)
	}
	return c.spec(dtypes, p)
}
