package ops

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// ArgKind says whether an op argument is a tensor or a scalar.
type ArgKind uint8

// Argument kinds.
const (
	KindTensor ArgKind = iota // a *Tensor
	KindScalar                // a float64
)

// Arg is one argument of an op's schema. Names appear in error messages.
type Arg struct {
	Name string
	Kind ArgKind
}

// Kernel computes an op on one device type. It is called after all
// argument checks passed, with:
//   - out: a freshly allocated contiguous tensor (offset 0, row-major
//     strides) with the output shape, on the inputs' device, of the inputs'
//     dtype; its contents are unspecified and the kernel must write all of
//     them;
//   - in: the tensor arguments in schema order, all on out's device and of
//     out's dtype; they may be non-contiguous (any non-negative strides,
//     any offset) and must not be modified;
//   - scalars: the scalar arguments in schema order.
//
// The storages stay allocated while the kernel runs. A kernel must not keep
// references to its arguments after returning (a device kernel may leave
// work queued on the device; see Backend.Free).
type Kernel func(out *Tensor, in []*Tensor, scalars []float64) error

// ShapeFunc checks op-specific rules on already validated inputs (same
// device and dtype, non-nil, live) and returns the output shape. An error
// is reported as an *OpError: a returned *OpError keeps its Kind (its Op is
// filled in if empty), any other error becomes Kind ErrShape with the
// error's text as Detail, so it should name the argument, e.g.
// "a has shape [3 4], b has shape [5 6]: inner dimensions must match".
type ShapeFunc func(in []*Tensor, scalars []float64) ([]int, error)

// BackwardFunc computes the gradients of an op's tensor inputs from the
// gradient of its output. It gets gradOut, the inputs and scalars of the
// forward call and its output (inputs and output detached from the graph)
// and returns one gradient per tensor input, in order, each with that
// input's shape, dtype and device, or nil for "no gradient". It should
// compute them with ops, so they run on the tensors' device. It may return
// gradOut itself or views of it; the tensors it computes belong to Backward
// once returned (Backward frees each as soon as it has been consumed, or
// hands it to a leaf as its Grad instead of copying it), so a backward
// function must not keep them.
type BackwardFunc func(gradOut *Tensor, in []*Tensor, scalars []float64, out *Tensor) ([]*Tensor, error)

// BackwardContextFunc is a BackwardFunc that also gets the context of the
// forward call (without its cancellation): it should call the ...Context
// variants of ops (Op.CallContext) with it, so the backward ops run where
// the forward op ran (with ops/cuda, on the forward's stream), like
// PyTorch's autograd, which runs each backward op on its forward op's
// stream.
type BackwardContextFunc func(ctx context.Context, gradOut *Tensor, in []*Tensor, scalars []float64, out *Tensor) ([]*Tensor, error)

// OpDef defines an op for RegisterOp.
type OpDef struct {
	Name     string       // unique name, e.g. "Axpby"; used in messages and by RegisterKernel
	Args     []Arg        // schema; at least one tensor argument
	Shape    ShapeFunc    // required: op-specific checks and output shape
	Backward BackwardFunc // optional: nil means the op is not differentiable
	// BackwardContext is Backward with the forward call's context; when
	// set, it is used instead of Backward.
	BackwardContext BackwardContextFunc
	CPU             Kernel // optional: the CPU kernel (same as RegisterKernel(Name, DeviceCPU, CPU))
}

// Op is a registered op. Its methods are safe for concurrent use.
type Op struct {
	def         OpDef
	tensorNames []string
	scalarNames []string
}

var registry = struct {
	mu      sync.RWMutex
	ops     map[string]*Op
	kernels map[*Op]*[numDeviceTypes]Kernel
}{ops: map[string]*Op{}, kernels: map[*Op]*[numDeviceTypes]Kernel{}}

// RegisterOp registers an op and returns it; this is the analogue of
// TORCH_LIBRARY's def. It is meant for package initialization (typically
// `var myOp = ops.RegisterOp(...)`) and panics on an invalid definition or
// a duplicate name, like database/sql.Register.
func RegisterOp(def OpDef) *Op {
	if def.Name == "" || def.Shape == nil {
		panic("ops.RegisterOp: Name and Shape are required")
	}
	o := &Op{def: def}
	o.def.Args = slices.Clone(def.Args)
	seen := map[string]bool{}
	for _, a := range def.Args {
		if a.Name == "" || seen[a.Name] {
			panic(fmt.Sprintf("ops.RegisterOp(%s): argument names must be unique and non-empty", def.Name))
		}
		seen[a.Name] = true
		switch a.Kind {
		case KindTensor:
			o.tensorNames = append(o.tensorNames, a.Name)
		case KindScalar:
			o.scalarNames = append(o.scalarNames, a.Name)
		default:
			panic(fmt.Sprintf("ops.RegisterOp(%s): argument %s has invalid kind %d", def.Name, a.Name, a.Kind))
		}
	}
	if len(o.tensorNames) == 0 {
		panic(fmt.Sprintf("ops.RegisterOp(%s): at least one tensor argument is required", def.Name))
	}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if registry.ops[def.Name] != nil {
		panic(fmt.Sprintf("ops.RegisterOp: op %s already registered", def.Name))
	}
	registry.ops[def.Name] = o
	ks := new([numDeviceTypes]Kernel)
	ks[DeviceCPU] = def.CPU
	registry.kernels[o] = ks
	return o
}

// builtins are the ops this package registers itself, in registration order.
var builtins []*Op

// registerBuiltin registers one of this package's own ops: the one place a
// built-in op is declared (its name, arguments, shape rule, backward and CPU
// kernel); BuiltinOps lists them for device backends and tests.
func registerBuiltin(def OpDef) *Op {
	o := RegisterOp(def)
	builtins = append(builtins, o)
	return o
}

// BuiltinOps returns the names of the ops that package ops registers itself,
// sorted: the ops a device backend provides kernels for (the package
// documentation lists them with their arguments). Ops registered by other
// packages are not included; LookupOp finds those too.
func BuiltinOps() []string {
	names := make([]string, len(builtins))
	for i, o := range builtins {
		names[i] = o.Name()
	}
	slices.Sort(names)
	return names
}

// RegisterKernel registers the kernel of the named op for device type dt;
// this is the analogue of TORCH_LIBRARY_IMPL. It may be called from any
// package (the CUDA backend calls it from its init function) after the op
// is registered. It panics if the op is unknown, k is nil, dt is invalid or
// a kernel is already registered for (op, dt).
func RegisterKernel(op string, dt DeviceType, k Kernel) {
	if k == nil || dt >= numDeviceTypes {
		panic(fmt.Sprintf("ops.RegisterKernel(%s, %v): nil kernel or invalid device type", op, dt))
	}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	o := registry.ops[op]
	if o == nil {
		panic(fmt.Sprintf("ops.RegisterKernel: op %s is not registered", op))
	}
	ks := registry.kernels[o]
	if ks[dt] != nil {
		panic(fmt.Sprintf("ops.RegisterKernel: op %s already has a %v kernel", op, dt))
	}
	ks[dt] = k
}

// LookupOp returns the op registered under name, or nil.
func LookupOp(name string) *Op {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	return registry.ops[name]
}

// Name returns the op's name.
func (o *Op) Name() string { return o.def.Name }

// Args returns a copy of the op's schema.
func (o *Op) Args() []Arg { return slices.Clone(o.def.Args) }

func kernelFor(o *Op, dt DeviceType) Kernel {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	return registry.kernels[o][dt]
}

func hasKernel(o *Op, dt DeviceType) bool { return kernelFor(o, dt) != nil }

func kernelDevices(o *Op) []string {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	var s []string
	for dt, k := range registry.kernels[o] {
		if k != nil {
			s = append(s, DeviceType(dt).String())
		}
	}
	return s
}

// Call runs the op: tensors and scalars are the tensor and scalar arguments
// in schema order. It checks that tensors are non-nil and not freed, that
// they are on one device and of one dtype, then the op's ShapeFunc, then
// runs the kernel registered for the device and returns a new contiguous
// tensor. If any input requires grad, the result records an autograd node.
func (o *Op) Call(tensors []*Tensor, scalars []float64) (*Tensor, error) {
	return o.call(context.Background(), o.def.Name, tensors, scalars, true)
}

// CallContext is Call with a context that the device's backend may read:
// with ops/cuda, the stream the kernel is queued on (cuda.WithStream). The
// output belongs to that stream. The context is not checked for
// cancellation; queuing an op does not wait.
func (o *Op) CallContext(ctx context.Context, tensors []*Tensor, scalars []float64) (*Tensor, error) {
	if ctx == nil {
		return nil, opErr(o.def.Name, "ctx", ErrArg, "context is nil")
	}
	return o.call(ctx, o.def.Name, tensors, scalars, true)
}

func (o *Op) call(ctx context.Context, name string, ts []*Tensor, sc []float64, record bool) (*Tensor, error) {
	if err := o.checkArgs(name, ts, sc); err != nil {
		return nil, err
	}
	if err := pinAll(name, ts, o.tensorNames); err != nil {
		return nil, err
	}
	defer unpinAll(ts)
	if err := o.checkSameDeviceAndDType(name, ts); err != nil {
		return nil, err
	}
	shape, err := o.outputShape(name, ts, sc)
	if err != nil {
		return nil, err
	}
	first := ts[0]
	k := kernelFor(o, first.device.Type)
	if k == nil {
		return nil, opErr(name, "", ErrNoKernel, "no kernel registered for device %v (have: %v)", first.device, kernelDevices(o))
	}
	out, err := allocTensorContext(ctx, name, first.device, first.dtype, shape)
	if err != nil {
		return nil, err
	}
	if err := orderInputs(name, out, ts, o.tensorNames); err != nil {
		out.Free()
		return nil, err
	}
	if err := k(out, ts, sc); err != nil {
		out.Free()
		return nil, fmt.Errorf("ops.%s: %v kernel: %w", name, first.device, err)
	}
	if record && anyRequiresGrad(ts) {
		o.recordNode(ctx, out, ts, sc)
	}
	return out, nil
}

// checkArgs checks the argument counts against the schema and that no tensor is nil.
func (o *Op) checkArgs(name string, ts []*Tensor, sc []float64) error {
	if len(ts) != len(o.tensorNames) || len(sc) != len(o.scalarNames) {
		return opErr(name, "", ErrArg, "got %d tensor and %d scalar arguments, expected tensors %v and scalars %v",
			len(ts), len(sc), o.tensorNames, o.scalarNames)
	}
	for i, t := range ts {
		if err := t.checkNil(name, o.tensorNames[i]); err != nil {
			return err
		}
	}
	return nil
}

// pinAll keeps the tensors' storage from being freed until unpinAll; it fails, pinning
// nothing, if one was freed already.
func pinAll(name string, ts []*Tensor, names []string) error {
	for i, t := range ts {
		if !t.buf.st.pin() {
			unpinAll(ts[:i])
			return opErr(name, names[i], ErrFreed, "%s has been freed", names[i])
		}
	}
	return nil
}

// unpinAll undoes pinAll.
func unpinAll(ts []*Tensor) {
	for _, t := range ts {
		t.buf.st.unpin()
	}
}

// checkSameDeviceAndDType checks that every tensor is on the first one's device, with its dtype.
func (o *Op) checkSameDeviceAndDType(name string, ts []*Tensor) error {
	first, n0 := ts[0], o.tensorNames[0]
	for i, t := range ts[1:] {
		if t.device != first.device {
			n := o.tensorNames[i+1]
			return opErr(name, n, ErrDevice, "%s is on %v, expected %v (same as %s)", n, t.device, first.device, n0)
		}
	}
	for i, t := range ts[1:] {
		if t.dtype != first.dtype {
			n := o.tensorNames[i+1]
			return opErr(name, n, ErrDType, "%s has dtype %v, expected %v (same as %s); ops do not promote dtypes: convert one explicitly, e.g. %s.AsType(ops.%s)",
				n, t.dtype, first.dtype, n0, n, first.dtype.goName())
		}
	}
	return nil
}

// outputShape runs the op's ShapeFunc, naming the op in its errors, and checks the result.
func (o *Op) outputShape(name string, ts []*Tensor, sc []float64) ([]int, error) {
	shape, err := o.def.Shape(ts, sc)
	if err != nil {
		var oe *OpError
		if errors.As(err, &oe) {
			e := *oe
			if e.Op == "" {
				e.Op = name
			}
			return nil, &e
		}
		return nil, &OpError{Op: name, Kind: ErrShape, Detail: err.Error()}
	}
	return checkShape(name, shape)
}

// recordNode makes out an autograd node over the inputs: its backward runs the op's Backward on
// detached copies of the inputs and of out.
func (o *Op) recordNode(ctx context.Context, out *Tensor, ts []*Tensor, sc []float64) {
	ins, scs := slices.Clone(ts), slices.Clone(sc)
	bw := o.def.BackwardContext
	if bw == nil && o.def.Backward != nil {
		b := o.def.Backward
		bw = func(_ context.Context, g *Tensor, in []*Tensor, sc []float64, out *Tensor) ([]*Tensor, error) {
			return b(g, in, sc, out)
		}
	}
	ctx = context.WithoutCancel(ctx)
	out.node = &node{name: o.def.Name, inputs: ins, ctx: ctx, backward: func(g *Tensor) ([]*Tensor, error) {
		if bw == nil {
			return nil, opErr(o.def.Name, "", ErrGrad, "backward is not implemented")
		}
		det := make([]*Tensor, len(ins))
		for i, t := range ins {
			det[i] = t.Detach()
		}
		return bw(ctx, g, det, scs, out.Detach())
	}}
	out.requiresGrad.Store(true)
}
