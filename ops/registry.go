package ops

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// ArgKind is the type of one argument of an op's schema.
type ArgKind uint8

// Argument kinds: a tensor, or one of the non-tensor kinds that Args
// carries, each as its own Go type.
const (
	KindTensor ArgKind = iota // a *Tensor
	KindFloat                 // a float64 (Args.Floats)
	KindInt                   // an int (Args.Ints): a dimension, an index, a size
	KindDType                 // a DType (Args.DTypes)
)

// String returns "tensor", "float", "int" or "dtype".
func (k ArgKind) String() string {
	switch k {
	case KindTensor:
		return "tensor"
	case KindFloat:
		return "float"
	case KindInt:
		return "int"
	case KindDType:
		return "dtype"
	}
	return fmt.Sprintf("ArgKind(%d)", uint8(k))
}

// Arg is one argument of an op's schema. Names appear in error messages.
type Arg struct {
	Name string
	Kind ArgKind
}

// Args are the non-tensor arguments of an op call, each kind in its own
// slice, in schema order: the i-th KindFloat argument of the schema is
// Floats[i], the i-th KindInt argument Ints[i], the i-th KindDType
// argument DTypes[i]. An op without such arguments takes the zero Args.
type Args struct {
	Floats []float64
	Ints   []int
	DTypes []DType
}

// clone returns a copy of a that shares no slice with it.
func (a Args) clone() Args {
	return Args{Floats: slices.Clone(a.Floats), Ints: slices.Clone(a.Ints), DTypes: slices.Clone(a.DTypes)}
}

// Kernel computes an op on one device type. It is called after all
// argument checks passed, with:
//   - ctx: the context the op was called with (for a kernel that calls
//     other ops, or launches through a package that takes one);
//   - out: a freshly allocated contiguous tensor (offset 0, row-major
//     strides) with the output shape, on the inputs' device, of the dtype
//     OpDef.DType gives (the inputs' by default), allocated for ctx (with
//     ops/cuda, on the context's stream, where the kernel must run); its
//     contents are unspecified and the kernel must write all of them;
//   - in: the tensor arguments in schema order, all on out's device and of
//     one dtype; they may be non-contiguous (any non-negative strides, any
//     offset; ContiguousInputs wraps a kernel that wants them contiguous)
//     and must not be modified;
//   - args: the non-tensor arguments, checked against the schema.
//
// The storages stay allocated while the kernel runs, and a device backend
// has ordered the work of out's stream after the work that produced each
// input (Backend.Order). A kernel must not keep references to its
// arguments after returning (a device kernel may leave work queued on the
// device; see Backend.Free).
type Kernel func(ctx context.Context, out *Tensor, in []*Tensor, args Args) error

// ShapeFunc checks op-specific rules on already validated inputs (same
// device and dtype, non-nil, live; args of the schema's kinds and counts)
// and returns the output shape. An error is reported as an *OpError: a
// returned *OpError keeps its Kind (its Op is filled in if empty), any
// other error becomes Kind ErrShape with the error's text as Detail, so it
// should name the argument, e.g. "a has shape [3 4], b has shape [5 6]:
// inner dimensions must match".
type ShapeFunc func(in []*Tensor, args Args) ([]int, error)

// BackwardFunc computes the gradients of an op's tensor inputs from the
// gradient of its output. It gets the context of the forward call (without
// its cancellation), gradOut, the inputs and arguments of the forward call
// and its output (inputs and output detached from the graph), and returns
// one gradient per tensor input, in order, each with that input's shape,
// dtype and device, or nil for "no gradient". It computes them with ops
// called with ctx, so they run where the forward op ran (with ops/cuda, on
// the forward's stream, like PyTorch's autograd). It may return gradOut
// itself or views of it; the tensors it computes belong to Backward once
// returned (Backward frees each as soon as it has been consumed, or hands
// it to a leaf as its Grad instead of copying it), so a backward function
// must not keep them.
type BackwardFunc func(ctx context.Context, gradOut *Tensor, in []*Tensor, args Args, out *Tensor) ([]*Tensor, error)

// OpDef defines an op for RegisterOp.
type OpDef struct {
	Name  string    // unique name, e.g. "Axpby"; used in messages and by LookupOp
	Args  []Arg     // schema; at least one tensor argument
	Shape ShapeFunc // required: op-specific checks and output shape
	// DType gives the output's dtype from the checked inputs and arguments
	// (AsType's is its dtype argument); nil means the inputs' dtype. It
	// runs after Shape, so it may rely on what Shape checked.
	DType    func(in []*Tensor, args Args) DType
	Backward BackwardFunc // optional: nil means the op is not differentiable
	CPU      Kernel       // optional: the CPU kernel (same as op.RegisterKernel(DeviceCPU, CPU))
}

// Op is a registered op. Its methods are safe for concurrent use.
type Op struct {
	def         OpDef
	tensorNames []string
	floatNames  []string
	intNames    []string
	dtypeNames  []string
}

// registry holds every op and its kernels by device type: Ops and MultiOps
// share one namespace.
var registry = struct {
	mu      sync.RWMutex
	ops     map[string]*Op
	kernels map[*Op]*[numDeviceTypes]Kernel
	multi   map[string]bool // the MultiOps' names (each holds its kernels)
}{ops: map[string]*Op{}, kernels: map[*Op]*[numDeviceTypes]Kernel{}, multi: map[string]bool{}}

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
		case KindFloat:
			o.floatNames = append(o.floatNames, a.Name)
		case KindInt:
			o.intNames = append(o.intNames, a.Name)
		case KindDType:
			o.dtypeNames = append(o.dtypeNames, a.Name)
		default:
			panic(fmt.Sprintf("ops.RegisterOp(%s): argument %s has invalid kind %d", def.Name, a.Name, a.Kind))
		}
	}
	if len(o.tensorNames) == 0 {
		panic(fmt.Sprintf("ops.RegisterOp(%s): at least one tensor argument is required", def.Name))
	}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if registry.ops[def.Name] != nil || registry.multi[def.Name] {
		panic(fmt.Sprintf("ops.RegisterOp: op %s already registered", def.Name))
	}
	registry.ops[def.Name] = o
	ks := new([numDeviceTypes]Kernel)
	ks[DeviceCPU] = def.CPU
	registry.kernels[o] = ks
	return o
}

// RegisterKernel registers the op's kernel for device type dt; this is
// the analogue of TORCH_LIBRARY_IMPL. It may be called from any package
// (the CUDA backend calls it from its init function, for the built-in ops
// as for a user's). It panics if k is nil, dt is invalid or the op has a
// kernel for dt already.
func (o *Op) RegisterKernel(dt DeviceType, k Kernel) {
	registerKernel("Op", o.def.Name, dt, k == nil,
		func() bool { return registry.kernels[o][dt] != nil }, func() { registry.kernels[o][dt] = k })
}

// registerKernel registers a kernel of the op named name for dt: under the
// registry's lock, set puts it in place unless occupied says dt has one. It
// panics as Op.RegisterKernel documents.
func registerKernel(kind, name string, dt DeviceType, isNil bool, occupied func() bool, set func()) {
	if isNil || dt >= numDeviceTypes {
		panic(fmt.Sprintf("ops.%s.RegisterKernel(%s, %v): nil kernel or invalid device type", kind, name, dt))
	}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if occupied() {
		panic(fmt.Sprintf("ops.%s.RegisterKernel: op %s already has a %v kernel", kind, name, dt))
	}
	set()
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
	ks := registry.kernels[o]
	return kernelDeviceNames(func(dt DeviceType) bool { return ks[dt] != nil })
}

// Call runs the op: tensors are the tensor arguments in schema order,
// args the others. It checks that the arguments match the schema, that
// tensors are non-nil and not freed, that they are on one device and of one
// dtype, then the op's ShapeFunc, then runs the kernel registered for the
// device and returns a new contiguous tensor. ctx is given to the device's
// backend, which may read it (with ops/cuda, the stream the kernel is
// queued on, chosen with cuda.WithStream; the output belongs to that
// stream), and to the kernel. Call does not wait for the kernel, and ctx is
// not checked for cancellation: queuing an op does not block. If any input
// requires grad, the result records an autograd node whose backward runs
// with ctx (without its cancellation).
func (o *Op) Call(ctx context.Context, tensors []*Tensor, args Args) (*Tensor, error) {
	return o.call(ctx, o.def.Name, tensors, args, true)
}

func (o *Op) call(ctx context.Context, name string, ts []*Tensor, args Args, record bool) (*Tensor, error) {
	if err := checkCtx(name, ctx); err != nil {
		return nil, err
	}
	if err := o.checkArgs(name, ts, args); err != nil {
		return nil, err
	}
	d := dispatch{name: name, names: o.tensorNames, ts: ts, op: o, args: args}
	var one [1]Output
	specs, err := d.begin(ctx, one[:0])
	if err != nil {
		return nil, err
	}
	defer unpinAll(ts)
	var out [1]*Tensor
	if err := d.alloc(ctx, specs, out[:]); err != nil {
		return nil, err
	}
	if err := d.opK(ctx, out[0], ts, args); err != nil {
		return nil, d.kernelFailed(out[:], err)
	}
	if record && anyRequiresGrad(ts) {
		o.recordNode(ctx, out[0], ts, args)
	}
	return out[0], nil
}

// checkArgs checks the arguments against the schema and that no tensor is nil.
func (o *Op) checkArgs(name string, ts []*Tensor, args Args) error {
	if len(ts) != len(o.tensorNames) || len(args.Floats) != len(o.floatNames) ||
		len(args.Ints) != len(o.intNames) || len(args.DTypes) != len(o.dtypeNames) {
		return opErr(name, "", ErrArg, "got %s, expected %s", argCounts(len(ts), args), o.schema())
	}
	for i, t := range ts {
		if err := t.checkNil(name, o.tensorNames[i]); err != nil {
			return err
		}
	}
	return nil
}

// argCounts describes the arguments of a call, e.g. "1 tensor and 2 float arguments".
func argCounts(tensors int, args Args) string {
	parts := []string{fmt.Sprintf("%d tensor", tensors)}
	for _, c := range []struct {
		n    int
		kind ArgKind
	}{{len(args.Floats), KindFloat}, {len(args.Ints), KindInt}, {len(args.DTypes), KindDType}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %v", c.n, c.kind))
		}
	}
	if len(parts) == 1 {
		return parts[0] + " arguments"
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1] + " arguments"
}

// schema describes the op's arguments by kind, e.g. "tensors [x] and floats [s]".
func (o *Op) schema() string {
	parts := []string{fmt.Sprintf("tensors %v", o.tensorNames)}
	for _, c := range []struct {
		names []string
		what  string
	}{{o.floatNames, "floats (Args.Floats)"}, {o.intNames, "ints (Args.Ints)"}, {o.dtypeNames, "dtypes (Args.DTypes)"}} {
		if len(c.names) > 0 {
			parts = append(parts, fmt.Sprintf("%s %v", c.what, c.names))
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
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

// outputShape runs the op's ShapeFunc, naming the op in its errors, and checks the result.
func (o *Op) outputShape(name string, ts []*Tensor, args Args) ([]int, error) {
	shape, err := o.def.Shape(ts, args)
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

// recordNode makes out an autograd node over the inputs: its backward runs the op's Backward, with
// the forward call's context (without its cancellation), on detached copies of the inputs and of out.
func (o *Op) recordNode(ctx context.Context, out *Tensor, ts []*Tensor, args Args) {
	ins, a := slices.Clone(ts), args.clone()
	bw := o.def.Backward
	fwd := context.WithoutCancel(ctx)
	out.node = &node{name: o.def.Name, inputs: ins, nOut: 1, ctx: fwd, backward: func(_ context.Context, g []*Tensor) ([]*Tensor, error) {
		if bw == nil {
			return nil, opErr(o.def.Name, "", ErrGrad, "backward is not implemented")
		}
		det := make([]*Tensor, len(ins))
		for i, t := range ins {
			det[i] = t.Detach()
		}
		return bw(fwd, g[0], det, a, out.Detach())
	}}
	out.requiresGrad.Store(true)
}
