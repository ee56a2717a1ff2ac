package fuse

import (
	"context"
	"fmt"
	"sync"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// Runner runs a Launch on one device type: it must write every element of
// the launch's outputs, on the stream ctx chooses, ordered after the work
// that produced the inputs. Package ops/fuse/fusecuda registers the CUDA
// runner when imported.
type Runner func(ctx context.Context, l *Launch) error

var runners struct {
	sync.RWMutex
	byType map[ops.DeviceType]Runner
}

// RegisterRunner registers the runner of a device type; meant for init
// functions, it panics when one is registered twice.
func RegisterRunner(dt ops.DeviceType, r Runner) {
	runners.Lock()
	defer runners.Unlock()
	if runners.byType == nil {
		runners.byType = map[ops.DeviceType]Runner{}
	}
	if _, dup := runners.byType[dt]; dup || dt == ops.DeviceCPU || r == nil {
		panic(fmt.Sprintf("fuse.RegisterRunner: a runner for %v is registered twice, nil, or for the CPU", dt))
	}
	runners.byType[dt] = r
}

func runnerFor(dt ops.DeviceType) Runner {
	if dt == ops.DeviceCPU {
		return func(_ context.Context, l *Launch) error { return runCPU(l) }
	}
	runners.RLock()
	defer runners.RUnlock()
	return runners.byType[dt]
}

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
// different dtypes) or ops.ErrNoKernel (no runner for the device, loaded
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
	var inBuf [8]ops.DType
	inT := inBuf[:0]
	for range inputs {
		inT = append(inT, 0)
	}
	for j, t := range inputs {
		if t == nil {
			return nil, &ops.OpError{Op: "fuse." + c.name, Arg: fmt.Sprintf("input %d", j), Kind: ops.ErrNil, Detail: fmt.Sprintf("input %d is nil", j)}
		}
		if t.Storage() == nil {
			return nil, &ops.OpError{Op: "fuse." + c.name, Arg: fmt.Sprintf("input %d", j), Kind: ops.ErrFreed, Detail: fmt.Sprintf("input %d has been freed", j)}
		}
		if t.Device() != inputs[0].Device() {
			return nil, &ops.OpError{Op: "fuse." + c.name, Arg: fmt.Sprintf("input %d", j), Kind: ops.ErrDevice,
				Detail: fmt.Sprintf("input %d is on %v, expected %v (same as input 0)", j, t.Device(), inputs[0].Device())}
		}
		inT[j] = t.DType()
	}
	shape, err := c.broadcast(inputs)
	if err != nil {
		return nil, err
	}
	// The vector width depends on the outputs' dtypes too: type first.
	ty, err := c.typed(inT)
	if err != nil {
		return nil, err
	}
	p := planFor(shape, inputs, inT, ty.out)
	s, err := c.spec(inT, p)
	if err != nil {
		return nil, err
	}
	dev := inputs[0].Device()
	run := runnerFor(dev.Type)
	if run == nil {
		return nil, c.errorf(ops.ErrNoKernel, "no fused-kernel runner for %v (import ops/fuse/fusecuda for CUDA)", dev)
	}
	outs := make([]*ops.Tensor, len(c.outputs))
	free := func() {
		for _, o := range outs {
			if o != nil {
				o.Free()
			}
		}
	}
	for k, d := range s.OutDTypes {
		if outs[k], err = ops.Empty(ctx, dev, d, shape...); err != nil {
			free()
			return nil, fmt.Errorf("fuse.%s: output %d: %w", c.name, k, err)
		}
	}
	l := &Launch{Spec: s, Outputs: outs, Inputs: inputs, N: p.n, Dims: p.dims, Strides: p.strides,
		Consts: c.consts, Args: scalars}
	if err := run(ctx, l); err != nil {
		free()
		return nil, fmt.Errorf("fuse.%s on %v: %w", c.name, dev, err)
	}
	if err := c.record(ctx, s, outs, inputs, scalars); err != nil {
		free()
		return nil, err
	}
	return outs, nil
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
func (c *Chain) SpecFor(n int, dtypes ...ops.DType) (*Spec, error) {
	return c.SpecForLayout(Vector, 0, n, dtypes...)
}

// SpecForLayout is SpecFor for a layout class; rank is the number of
// merged dimensions of the Strided class.
func (c *Chain) SpecForLayout(layout LayoutClass, rank, n int, dtypes ...ops.DType) (*Spec, error) {
	if len(dtypes) != c.nIn {
		return nil, c.errorf(ops.ErrArg, "got %d dtypes, expected %d", len(dtypes), c.nIn)
	}
	ty, err := c.typed(dtypes)
	if err != nil {
		return nil, err
	}
	p := plan{n: n, layout: layout, vec: vecWidth(dtypes, ty.out), index64: n > 1<<31-1}
	if layout == Strided {
		p.dims = make([]int, rank)
	}
	return c.spec(dtypes, p)
}
