package ops

import (
	"context"
	"fmt"
	"slices"
)

// dispatch is one call through the dispatcher, the path every op call
// takes, whether of an Op (one output) or of a MultiOp (several): begin
// checks the tensors (non-nil, not freed, on one device, of one dtype
// where the op asks for it), pins them for the call, gets the outputs'
// shapes and dtypes and finds the kernel of the device; alloc allocates
// the outputs for ctx on the inputs' device and orders the work of their
// stream after the work that produced each input; the caller (Op.call,
// MultiOp.Call) then runs the kernel, records the call for autograd and
// unpins. Exactly one of op and multi is set; the fields below each are
// theirs.
type dispatch struct {
	name  string
	names []string // the tensors' argument names, for errors
	ts    []*Tensor
	dev   Device

	op   *Op
	args Args
	opK  Kernel

	multi   multiOp
	prepare func(in []*Tensor, grad bool) ([]Output, FuncBackward, error) // sets the call's argument
	bw      FuncBackward
}

// multiOp is what the dispatcher needs of a MultiOp of any argument type.
type multiOp interface {
	hasKernel(dt DeviceType) bool // called under registry.mu
}

// Output is the shape and dtype of one output of a MultiOp call.
type Output struct {
	Shape []int
	DType DType
}

// begin checks and pins the tensors and returns the outputs' shapes and
// dtypes (appended to buf). On success the caller unpins the tensors
// (unpinAll) when the call is done; on error nothing is left pinned.
func (d *dispatch) begin(ctx context.Context, buf []Output) ([]Output, error) {
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
	specs, err := d.checked(buf)
	if err != nil {
		unpinAll(d.ts)
		return nil, err
	}
	return specs, nil
}

// checked is begin's part once the tensors are pinned: the device (and
// dtype) check, the outputs and the kernel.
func (d *dispatch) checked(buf []Output) ([]Output, error) {
	if err := checkSameDevice(d.name, d.ts, d.names, d.op != nil); err != nil {
		return nil, err
	}
	if err := d.checkFloat(); err != nil {
		return nil, err
	}
	specs, err := d.outputs(buf)
	if err != nil {
		return nil, err
	}
	d.dev = d.ts[0].device
	registry.mu.RLock()
	found := false
	if d.op != nil {
		d.opK = registry.kernels[d.op][d.dev.Type]
		found = d.opK != nil
	} else {
		found = d.multi.hasKernel(d.dev.Type)
	}
	registry.mu.RUnlock()
	if !found {
		return nil, opErr(d.name, "", ErrNoKernel, "no kernel registered for device %v (have: %v)", d.dev, d.devices())
	}
	return specs, nil
}

// alloc allocates outs[i] for specs[i] and orders it after the inputs; on
// error it frees what it allocated.
func (d *dispatch) alloc(ctx context.Context, specs []Output, outs []*Tensor) error {
	for i, s := range specs {
		var err error
		if outs[i], err = allocTensor(ctx, d.name, d.dev, s.DType, s.Shape); err == nil {
			err = orderInputs(d.name, outs[i], d.ts, d.names)
		}
		if err != nil {
			freeAll(outs)
			return err
		}
	}
	return nil
}

// kernelFailed frees the outputs of a call whose kernel failed and returns
// the kernel's error, wrapped.
func (d *dispatch) kernelFailed(outs []*Tensor, err error) error {
	freeAll(outs)
	return fmt.Errorf("ops.%s: %v kernel: %w", d.name, d.dev, err)
}

// freeAll frees the tensors (nil ones are skipped).
func freeAll(ts []*Tensor) {
	for _, t := range ts {
		t.Free()
	}
}

// outputs returns the outputs' shapes and dtypes, appended to buf: the
// op's shape and dtype rules, or the MultiOp call's prepare (which also
// sets the call's argument and d.bw). The tensors are checked and pinned.
func (d *dispatch) outputs(buf []Output) ([]Output, error) {
	name, ts := d.name, d.ts
	if o := d.op; o != nil {
		shape, err := o.outputShape(name, ts, d.args)
		if err != nil {
			return nil, err
		}
		dtype := ts[0].dtype
		if o.def.DType != nil {
			if dtype = o.def.DType(ts, d.args); !dtype.valid() || (!dtype.isFloat() && o != Builtin.Contiguous) {
				return nil, opErr(name, "", ErrDType, "the output dtype %v is not supported, expected float32, float64, float16 or bfloat16", dtype)
			}
		}
		return append(buf, Output{Shape: shape, DType: dtype}), nil
	}
	grad := anyRequiresGrad(ts)
	outs, bw, err := d.prepare(ts, grad)
	if err != nil {
		return nil, err
	}
	if bw == nil && grad {
		return nil, opErr(name, "", ErrGrad, "backward is not implemented")
	}
	d.bw = bw
	for i, s := range outs {
		if !s.DType.valid() {
			return nil, opErr(name, "", ErrDType, "output %d has dtype %v, expected float32, float64, float16, bfloat16 or int32", i, s.DType)
		}
		sh, err := checkShape(name, s.Shape) // a private copy
		if err != nil {
			return nil, err
		}
		outs[i].Shape = sh
	}
	return outs, nil
}

// devices names the device types the op has kernels for.
func (d *dispatch) devices() []string {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	if d.op != nil {
		ks := registry.kernels[d.op]
		return kernelDeviceNames(func(dt DeviceType) bool { return ks[dt] != nil })
	}
	return kernelDeviceNames(d.multi.hasKernel)
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
// (shapes and dtypes from the call's prepare; the kernel writes all of
// them), in the call's inputs (on outs' device, of any dtypes and layouts;
// not to be modified) and arg the argument the call's prepare returned, of
// the op's argument type A.
type MultiKernel[A any] func(ctx context.Context, outs, in []*Tensor, arg A) error

// MultiOp is a registered op with any number of tensor inputs of any dtypes
// and several outputs, whose calls each say their outputs, the argument of
// type A their kernel gets and their backward: a family of computations
// that share their kernels per device, such as the fused chains of package
// ops/fuse (whose CUDA kernel package ops/fuse/fusecuda registers). Its
// calls take the path of an Op's. Its methods are safe for concurrent use.
type MultiOp[A any] struct {
	name    string
	kernels [numDeviceTypes]MultiKernel[A] // guarded by registry.mu
}

// RegisterMultiOp registers a MultiOp under a name no other op has, with
// its CPU kernel (nil: none). Like RegisterOp it is meant for package
// initialization and panics on an empty or duplicate name.
func RegisterMultiOp[A any](name string, cpu MultiKernel[A]) *MultiOp[A] {
	if name == "" {
		panic("ops.RegisterMultiOp: a name is required")
	}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if registry.ops[name] != nil || registry.multi[name] {
		panic(fmt.Sprintf("ops.RegisterMultiOp: op %s already registered", name))
	}
	registry.multi[name] = true
	o := &MultiOp[A]{name: name}
	o.kernels[DeviceCPU] = cpu
	return o
}

// RegisterKernel registers the op's kernel for device type dt; it panics
// if k is nil, dt is invalid or dt has a kernel already.
func (o *MultiOp[A]) RegisterKernel(dt DeviceType, k MultiKernel[A]) {
	registerKernel("MultiOp", o.name, dt, k == nil,
		func() bool { return o.kernels[dt] != nil }, func() { o.kernels[dt] = k })
}

func (o *MultiOp[A]) hasKernel(dt DeviceType) bool { return o.kernels[dt] != nil }

// Call runs one call of the op, named name in errors and in the autograd
// graph (e.g. "fuse.gelu"; "" means the op's name), on inputs (on one
// device; errors name them "input 0", "input 1", ...). Once the inputs are
// checked (non-nil, not freed, on one device) and kept from being freed
// during the call, prepare returns the outputs' shapes and dtypes, the
// argument the kernel gets and, when grad is true (an input requires
// grad), the call's backward (nil: not differentiable, an ErrGrad error).
// Call then allocates the outputs for ctx on the inputs' device (as
// Op.Call does), runs the kernel registered for the device and, with grad,
// records the outputs as one autograd node over the inputs: Backward runs
// it once, after everything that used any of its outputs, with the
// gradients of all of them. Errors are as Op.Call's.
func (o *MultiOp[A]) Call(ctx context.Context, name string, inputs []*Tensor,
	prepare func(in []*Tensor, grad bool) (outs []Output, arg A, bw FuncBackward, err error)) ([]*Tensor, error) {
	if name == "" {
		name = o.name
	}
	if len(inputs) == 0 || prepare == nil {
		return nil, opErr(name, "", ErrArg, "a call needs at least one input and a prepare function")
	}
	var arg A
	d := dispatch{name: name, names: inputNames(len(inputs)), ts: inputs, multi: o,
		prepare: func(in []*Tensor, grad bool) ([]Output, FuncBackward, error) {
			outs, a, bw, err := prepare(in, grad)
			arg = a
			return outs, bw, err
		}}
	specs, err := d.begin(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer unpinAll(inputs)
	registry.mu.RLock()
	k := o.kernels[d.dev.Type]
	registry.mu.RUnlock()
	outs := make([]*Tensor, len(specs))
	if err := d.alloc(ctx, specs, outs); err != nil {
		return nil, err
	}
	if err := k(ctx, outs, inputs, arg); err != nil {
		return nil, d.kernelFailed(outs, err)
	}
	if anyRequiresGrad(inputs) {
		recordOutputs(ctx, name, outs, inputs, d.bw)
	}
	return outs, nil
}

// inputNames are the names of a MultiOp call's inputs in errors.
func inputNames(n int) []string {
	if n <= len(inputNameList) {
		return inputNameList[:n]
	}
	names := slices.Clone(inputNameList)
	for i := len(names); i < n; i++ {
		names = append(names, fmt.Sprintf("input %d", i))
	}
	return names
}

var inputNameList = func() []string {
	names := make([]string, 16)
	for i := range names {
		names[i] = fmt.Sprintf("input %d", i)
	}
	return names
}()

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
