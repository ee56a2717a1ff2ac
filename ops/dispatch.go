package ops

import (
	"context"
	"fmt"
	"slices"
)

// dispatch is one call through the dispatcher, the path every op call
// takes, whether of an Op (one output) or of a MultiOp (several): the
// tensors are checked (non-nil, not freed, on one device, of one dtype
// where the op asks for it) and pinned for the call, the outputs are
// allocated for ctx on the inputs' device, the work of their stream is
// ordered after the work that produced each input, the kernel registered
// for the device runs, and the call is recorded for autograd.
type dispatch struct {
	name      string
	names     []string // the tensors' argument names, for errors
	ts        []*Tensor
	sameDType bool
	// outputs gives the outputs' shapes and dtypes; it runs after the
	// checks, with the tensors pinned.
	outputs func() ([]Output, error)
	// kernel returns the kernel for a device type, nil when none is
	// registered.
	kernel  func(dt DeviceType) func(ctx context.Context, outs []*Tensor) error
	devices func() []string
	// record, when not nil, is called when an input requires grad.
	record func(ctx context.Context, outs []*Tensor) error
}

// Output is the shape and dtype of one output of a MultiOp call.
type Output struct {
	Shape []int
	DType DType
}

func (d *dispatch) run(ctx context.Context) ([]*Tensor, error) {
	name := d.name
	if err := checkCtx(name, ctx); err != nil {
		return nil, err
	}
	for i, t := range d.ts {
		if err := t.checkNil(name, d.names[i]); err != nil {
			return nil, err
		}
	}
	if err := pinAll(name, d.ts, d.names); err != nil {
		return nil, err
	}
	defer unpinAll(d.ts)
	if err := checkSameDevice(name, d.ts, d.names, d.sameDType); err != nil {
		return nil, err
	}
	specs, err := d.outputs()
	if err != nil {
		return nil, err
	}
	dev := d.ts[0].device
	k := d.kernel(dev.Type)
	if k == nil {
		return nil, opErr(name, "", ErrNoKernel, "no kernel registered for device %v (have: %v)", dev, d.devices())
	}
	outs := make([]*Tensor, len(specs))
	free := func() {
		for _, o := range outs {
			o.Free()
		}
	}
	for i, s := range specs {
		if outs[i], err = allocTensor(ctx, name, dev, s.DType, s.Shape); err != nil {
			free()
			return nil, err
		}
		if err := orderInputs(name, outs[i], d.ts, d.names); err != nil {
			free()
			return nil, err
		}
	}
	if err := k(ctx, outs); err != nil {
		free()
		return nil, fmt.Errorf("ops.%s: %v kernel: %w", name, dev, err)
	}
	if d.record != nil && anyRequiresGrad(d.ts) {
		if err := d.record(ctx, outs); err != nil {
			free()
			return nil, err
		}
	}
	return outs, nil
}

// checkSameDevice checks that every tensor is on the first one's device
// and, with sameDType, of its dtype.
func checkSameDevice(name string, ts []*Tensor, names []string, sameDType bool) error {
	first, n0 := ts[0], names[0]
	for i, t := range ts[1:] {
		if t.device != first.device {
			n := names[i+1]
			return opErr(name, n, ErrDevice, "%s is on %v, expected %v (same as %s)", n, t.device, first.device, n0)
		}
	}
	if !sameDType {
		return nil
	}
	for i, t := range ts[1:] {
		if t.dtype != first.dtype {
			n := names[i+1]
			return opErr(name, n, ErrDType, "%s has dtype %v, expected %v (same as %s); ops do not promote dtypes: convert one explicitly, e.g. %s.AsType(ops.%s)",
				n, t.dtype, first.dtype, n0, n, first.dtype.goName())
		}
	}
	return nil
}

// MultiKernel computes the outputs of one call of a MultiOp on one device
// type. It is called as a Kernel is, with outs the fresh contiguous outputs
// (shapes and dtypes from the call's Prepare; the kernel writes all of
// them), in the call's inputs (on outs' device, of any dtypes and layouts;
// not to be modified) and attr the value the call's Prepare returned.
type MultiKernel func(ctx context.Context, outs, in []*Tensor, attr any) error

// MultiOp is a registered op with any number of tensor inputs of any dtypes
// and several outputs, whose calls each say their outputs, the value their
// kernel gets and their backward: a family of computations that share
// their kernels per device, such as the fused chains of package ops/fuse
// (whose CUDA kernel package ops/fuse/fusecuda registers). Its calls take
// the path of an Op's. Its methods are safe for concurrent use.
type MultiOp struct {
	name string
}

// RegisterMultiOp registers a MultiOp under a name no other op has, with
// its CPU kernel (nil: none). Like RegisterOp it is meant for package
// initialization and panics on an empty or duplicate name.
func RegisterMultiOp(name string, cpu MultiKernel) *MultiOp {
	if name == "" {
		panic("ops.RegisterMultiOp: a name is required")
	}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if registry.ops[name] != nil || registry.multi[name] != nil {
		panic(fmt.Sprintf("ops.RegisterMultiOp: op %s already registered", name))
	}
	o := &MultiOp{name: name}
	registry.multi[name] = o
	registry.multiKernels[o] = &[numDeviceTypes]MultiKernel{DeviceCPU: cpu}
	return o
}

// RegisterKernel registers the op's kernel for device type dt; it panics
// if k is nil, dt is invalid or dt has a kernel already.
func (o *MultiOp) RegisterKernel(dt DeviceType, k MultiKernel) {
	registerKernel("MultiOp", o.name, dt, k == nil,
		func() bool { return registry.multiKernels[o][dt] != nil }, func() { registry.multiKernels[o][dt] = k })
}

// Call runs one call of the op, named name in errors and in the autograd
// graph (e.g. "fuse.gelu"; "" means the op's name), on inputs (on one
// device; errors name them "input 0", "input 1", ...). Once the inputs are
// checked (non-nil, not freed, on one device) and kept from being freed
// during the call, prepare returns the outputs' shapes and dtypes, the
// value the kernel gets as attr and, when grad is true (an input requires
// grad), the call's backward (nil: not differentiable, an ErrGrad error).
// Call then allocates the outputs for ctx on the inputs' device (as
// Op.Call does), runs the kernel registered for the device and, with grad,
// records the outputs as one autograd node over the inputs: Backward runs
// it once, after everything that used any of its outputs, with the
// gradients of all of them. Errors are as Op.Call's.
func (o *MultiOp) Call(ctx context.Context, name string, inputs []*Tensor,
	prepare func(in []*Tensor, grad bool) (outs []Output, attr any, bw FuncBackward, err error)) ([]*Tensor, error) {
	if name == "" {
		name = o.name
	}
	if len(inputs) == 0 || prepare == nil {
		return nil, opErr(name, "", ErrArg, "a call needs at least one input and a Prepare function")
	}
	names := make([]string, len(inputs))
	for i := range names {
		names[i] = fmt.Sprintf("input %d", i)
	}
	var attr any
	var bw FuncBackward
	d := dispatch{name: name, names: names, ts: inputs,
		outputs: func() ([]Output, error) {
			outs, a, b, err := prepare(inputs, anyRequiresGrad(inputs))
			if err != nil {
				return nil, err
			}
			attr, bw = a, b
			if bw == nil && anyRequiresGrad(inputs) {
				return nil, opErr(name, "", ErrGrad, "backward is not implemented")
			}
			for i, s := range outs {
				if !s.DType.valid() {
					return nil, opErr(name, "", ErrDType, "output %d has dtype %v, expected float32, float64, float16 or bfloat16", i, s.DType)
				}
				sh, err := checkShape(name, slices.Clone(s.Shape))
				if err != nil {
					return nil, err
				}
				outs[i].Shape = sh
			}
			return outs, nil
		},
		kernel: func(dt DeviceType) func(context.Context, []*Tensor) error {
			registry.mu.RLock()
			k := registry.multiKernels[o][dt]
			registry.mu.RUnlock()
			if k == nil {
				return nil
			}
			return func(ctx context.Context, outs []*Tensor) error { return k(ctx, outs, inputs, attr) }
		},
		devices: func() []string {
			registry.mu.RLock()
			defer registry.mu.RUnlock()
			ks := registry.multiKernels[o]
			return kernelDeviceNames(func(dt DeviceType) bool { return ks[dt] != nil })
		},
		record: func(ctx context.Context, outs []*Tensor) error {
			recordOutputs(ctx, name, outs, inputs, bw)
			return nil
		},
	}
	return d.run(ctx)
}

// kernelDeviceNames names the device types that has says have a kernel.
func kernelDeviceNames(has func(dt DeviceType) bool) []string {
	var s []string
	for dt := range numDeviceTypes {
		if has(dt) {
			s = append(s, dt.String())
		}
	}
	return s
}
