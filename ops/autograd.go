package ops

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"weak"
)

// node records how non-leaf tensors were computed: its outputs (nOut of
// them; each refers to the node and its index) from inputs. It is
// immutable. Backward keys pending gradients by (node, output index), so a
// node refers to its outputs only where its backward does (an op's to its
// one output; a MultiOp call's to none), and an output that nothing uses can
// be collected or freed while the graph lives.
type node struct {
	name   string
	inputs []*Tensor
	nOut   int
	// backward gets one gradient per output (nil for an output that
	// received none; at least one is not nil) and returns one gradient
	// (or nil) per input; ctx is Backward's (op nodes use their forward
	// call's instead).
	backward func(ctx context.Context, g []*Tensor) ([]*Tensor, error)
	// ctx is the forward call's context, without its cancellation (nil
	// for views and copies): the sums of gradients for the inputs are
	// computed with it.
	ctx context.Context
}

func anyRequiresGrad(ts []*Tensor) bool {
	for _, t := range ts {
		if t.requiresGrad.Load() {
			return true
		}
	}
	return false
}

// recordUnary gives out a node with one input if in requires grad; bw
// gets the context of Backward.
func recordUnary(out *Tensor, name string, in *Tensor, bw func(ctx context.Context, g *Tensor) (*Tensor, error)) {
	if !in.requiresGrad.Load() {
		return
	}
	out.node = &node{name: name, inputs: []*Tensor{in}, nOut: 1, backward: func(ctx context.Context, g []*Tensor) ([]*Tensor, error) {
		r, err := bw(ctx, g[0])
		return []*Tensor{r}, err
	}}
	out.requiresGrad.Store(true)
}

// SetRequiresGrad marks a leaf tensor (one not produced by an op) as
// needing gradients: ops on it then record a graph and Backward
// accumulates into its Grad. It fails with ErrGrad on a non-leaf.
func (t *Tensor) SetRequiresGrad(requires bool) error {
	if err := t.checkNil("SetRequiresGrad", "tensor"); err != nil {
		return err
	}
	if t.node != nil {
		return opErr("SetRequiresGrad", "tensor", ErrGrad, "tensor is not a leaf (it was computed by %s); use Detach to get a leaf", t.node.name)
	}
	if requires && !t.dtype.isFloat() {
		return opErr("SetRequiresGrad", "tensor", ErrDType, "tensor has dtype %v: only floating-point tensors have gradients", t.dtype)
	}
	t.requiresGrad.Store(requires)
	return nil
}

// RequiresGrad reports whether gradients flow to or through t.
func (t *Tensor) RequiresGrad() bool { return t != nil && t.requiresGrad.Load() }

// IsLeaf reports whether t was not computed by a recorded op or view.
func (t *Tensor) IsLeaf() bool { return t != nil && t.node == nil }

// Grad returns the gradient accumulated by Backward into a leaf that
// requires grad, or nil. The gradient is a contiguous tensor on t's device.
func (t *Tensor) Grad() *Tensor {
	if t == nil {
		return nil
	}
	t.gradMu.Lock()
	defer t.gradMu.Unlock()
	return t.grad
}

// ZeroGrad drops the accumulated gradient. Its memory then goes back when
// the garbage collector finds it unreferenced, which for device memory can
// be long after (the collector does not see it); a loop that is done with
// a gradient frees it first, t.Grad().Free(), then calls ZeroGrad.
func (t *Tensor) ZeroGrad() {
	if t == nil {
		return
	}
	t.gradMu.Lock()
	t.grad = nil
	t.gradMu.Unlock()
}

// GradHook is run by Backward (and BackwardWithGrad) on a leaf once its
// gradient of that pass is final: after the gradients of every use of the
// leaf in the graph have been accumulated into leaf.Grad(). It runs on
// Backward's goroutine with Backward's context, while the rest of the
// backward pass is still to be queued, so work it queues on another stream
// (cuda.WithStream), such as an all-reduce of the gradient, overlaps the
// rest of the pass: the Go analogue of PyTorch's
// register_post_accumulate_grad_hook, on which DistributedDataParallel's
// gradient buckets are built. An error stops Backward, which returns it
// wrapped.
type GradHook func(ctx context.Context, leaf *Tensor) error

// AddGradHook adds h to the hooks Backward runs on the leaf t once its
// gradient is final (see GradHook), after those added before; remove takes
// it away again. It fails with ErrGrad on a tensor that is not a leaf.
func (t *Tensor) AddGradHook(h GradHook) (remove func(), err error) {
	if err := t.checkNil("AddGradHook", "tensor"); err != nil {
		return nil, err
	}
	if h == nil {
		return nil, opErr("AddGradHook", "h", ErrArg, "hook is nil")
	}
	if t.node != nil {
		return nil, opErr("AddGradHook", "tensor", ErrGrad, "tensor is not a leaf (it was computed by %s): hooks run on leaves", t.node.name)
	}
	p := &h
	t.gradMu.Lock()
	t.hooks = append(t.hooks, p)
	t.gradMu.Unlock()
	return func() {
		t.gradMu.Lock()
		defer t.gradMu.Unlock()
		t.hooks = slices.DeleteFunc(t.hooks, func(q *GradHook) bool { return q == p })
	}, nil
}

// SetGrad replaces the leaf's gradient with g (nil drops it, as ZeroGrad
// does), which must have t's shape, dtype and device and be contiguous; the
// next Backward accumulates into it. Like assigning to a PyTorch
// parameter's .grad.
func (t *Tensor) SetGrad(g *Tensor) error {
	if err := t.checkNil("SetGrad", "tensor"); err != nil {
		return err
	}
	if t.node != nil {
		return opErr("SetGrad", "tensor", ErrGrad, "tensor is not a leaf (it was computed by %s)", t.node.name)
	}
	if g != nil {
		if err := g.check("SetGrad", "g"); err != nil {
			return err
		}
		if g.device != t.device || g.dtype != t.dtype || !slices.Equal(g.shape, t.shape) || !g.IsContiguous() {
			return opErr("SetGrad", "g", ErrShape, "gradient %v must be contiguous with shape %v, dtype %v, device %v (the tensor's)", g, t.shape, t.dtype, t.device)
		}
	}
	t.gradMu.Lock()
	t.grad = g
	t.gradMu.Unlock()
	return nil
}

// runHooks runs the leaf's grad hooks (see GradHook).
func (t *Tensor) runHooks(ctx context.Context) error {
	t.gradMu.Lock()
	hs := slices.Clone(t.hooks)
	t.gradMu.Unlock()
	for _, h := range hs {
		if err := (*h)(ctx, t); err != nil {
			return fmt.Errorf("ops.Backward: grad hook of leaf %v: %w", t, err)
		}
	}
	return nil
}

// Detach returns a view of t sharing its storage that is a leaf and does
// not require grad: ops on it record nothing. It is the way to run
// computations without building a graph (Go has no goroutine-local "no
// grad" mode).
func (t *Tensor) Detach() *Tensor {
	if t == nil || t.buf == nil {
		return nil
	}
	return t.view(t.shape, t.strides, t.offset)
}

// Backward computes the gradient of a one-element tensor (0-d or any shape
// with one element) with respect to every leaf it depends on that requires
// grad, and accumulates it into their Grad. It is BackwardWithGrad with a
// gradient of 1.
func (t *Tensor) Backward(ctx context.Context) error {
	const op = "Backward"
	if err := checkCtx(op, ctx); err != nil {
		return err
	}
	if err := t.check(op, "tensor"); err != nil {
		return err
	}
	if n := t.Numel(); n != 1 {
		return opErr(op, "tensor", ErrShape, "tensor has shape %v (%d elements), expected one element; use BackwardWithGrad", t.shape, n)
	}
	g, err := Full(1, t.dtype, t.shape...)
	if err != nil {
		return err
	}
	if g, err = g.To(ctx, t.device); err != nil {
		return err
	}
	return t.BackwardWithGrad(ctx, g)
}

// BackwardWithGrad back-propagates grad (the gradient of some scalar with
// respect to t; same shape, dtype and device as t) through the recorded
// graph in reverse topological order, so tensors used several times get
// the sum of their gradients and a node with several outputs (a MultiOp call)
// runs once with the gradients of all of them, and accumulates the results
// into the Grad of the leaves that require grad. Backward functions run as ops on the
// tensors' device without recording (no double backward), each op's with
// the context of its forward call (with ops/cuda, on the forward's
// stream), the others (views, copies, sums into leaves) with ctx. The
// graph is kept, so Backward may be called again; gradients then add up.
// ctx is checked between nodes: when it is done, Backward returns its
// error wrapped, and the leaves keep what was accumulated so far (ZeroGrad
// clears it).
func (t *Tensor) BackwardWithGrad(ctx context.Context, grad *Tensor) error {
	const op = "Backward"
	if err := checkCtx(op, ctx); err != nil {
		return err
	}
	if err := t.check(op, "tensor"); err != nil {
		return err
	}
	if err := grad.check(op, "grad"); err != nil {
		return err
	}
	if !t.requiresGrad.Load() {
		return opErr(op, "tensor", ErrGrad, "tensor does not require grad (no input of the ops that computed it called SetRequiresGrad(true))")
	}
	if grad.device != t.device {
		return opErr(op, "grad", ErrDevice, "grad is on %v, expected %v (same as tensor)", grad.device, t.device)
	}
	if grad.dtype != t.dtype {
		return opErr(op, "grad", ErrDType, "grad has dtype %v, expected %v (same as tensor)", grad.dtype, t.dtype)
	}
	if !slices.Equal(grad.shape, t.shape) {
		return opErr(op, "grad", ErrShape, "grad has shape %v, expected %v (same as tensor)", grad.shape, t.shape)
	}
	order := topoOrder(t)
	own := newGradOwner()
	grads := map[slot]*Tensor{t.slot(): grad.Detach()}
	for i := len(order) - 1; i >= 0; i-- {
		v := order[i]
		if v.leaf != nil {
			g := grads[slot{leaf: v.leaf}]
			delete(grads, slot{leaf: v.leaf})
			if g == nil {
				continue
			}
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("ops.Backward: stopped before accumulating into a leaf: %w", err)
			}
			if err := v.leaf.accumulateGrad(ctx, g, own); err != nil {
				return err
			}
			if err := v.leaf.runHooks(ctx); err != nil {
				return err
			}
			continue
		}
		n := v.n
		gs := make([]*Tensor, n.nOut)
		got := false
		for k := range gs {
			gs[k] = grads[slot{n: n, k: k}]
			delete(grads, slot{n: n, k: k})
			got = got || gs[k] != nil
		}
		if !got {
			continue
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("ops.Backward: stopped before the backward of %s: %w", n.name, err)
		}
		if err := n.run(ctx, op, gs, grads, own); err != nil {
			return err
		}
	}
	// t's node (a backward may need t) stays reachable until the end.
	runtime.KeepAlive(t)
	return nil
}

// slot is where a pending gradient goes: output k of node n, or a leaf.
type slot struct {
	n    *node
	k    int
	leaf *Tensor
}

func (t *Tensor) slot() slot {
	if t.node == nil {
		return slot{leaf: t}
	}
	return slot{n: t.node, k: t.out}
}

// run calls n's backward on the gradients of its outputs, adds the results
// to the pending gradients of its inputs and drops gs.
func (n *node) run(ctx context.Context, op string, gs []*Tensor, grads map[slot]*Tensor, own *gradOwner) error {
	gin, err := n.backward(ctx, gs)
	if err != nil {
		var oe *OpError
		if errors.As(err, &oe) {
			return err
		}
		return opErr(op, "", ErrGrad, "backward of %s: %v", n.name, err)
	}
	if len(gin) != len(n.inputs) {
		return opErr(op, "", ErrGrad, "backward of %s returned %d gradients for %d inputs", n.name, len(gin), len(n.inputs))
	}
	// Each result is held before gs are dropped: a result may be one of
	// them or a view of one.
	for _, gj := range gin {
		if gj != nil && gj.buf != nil {
			own.hold(gj)
		}
	}
	for j, in := range n.inputs {
		gj := gin[j]
		if gj == nil || gj.buf == nil {
			continue
		}
		if !in.requiresGrad.Load() {
			if err := own.drop(gj); err != nil {
				return opErr(op, "", ErrGrad, "backward of %s: %v", n.name, err)
			}
			continue
		}
		if !slices.Equal(gj.shape, in.shape) || gj.dtype != in.dtype || gj.device != in.device {
			return opErr(op, "", ErrGrad, "backward of %s returned a gradient %v for input %d, expected shape %v, dtype %v, device %v",
				n.name, gj, j, in.shape, in.dtype, in.device)
		}
		key := in.slot()
		if prev := grads[key]; prev != nil {
			sum, err := n.sumGrads(ctx, op, prev, gj)
			if err != nil {
				return err
			}
			if err := errors.Join(own.drop(prev), own.drop(gj)); err != nil {
				return opErr(op, "", ErrGrad, "backward of %s: %v", n.name, err)
			}
			own.hold(sum)
			gj = sum
		}
		grads[key] = gj.Detach()
	}
	for _, g := range gs {
		if g == nil {
			continue
		}
		if err := own.drop(g); err != nil {
			return opErr(op, "", ErrGrad, "backward of %s: %v", n.name, err)
		}
	}
	return nil
}

// sumGrads adds two gradients of one input of n, with the forward call's
// context (its stream, on a GPU), or ctx, Backward's, for views and
// copies.
func (n *node) sumGrads(ctx context.Context, op string, a, b *Tensor) (*Tensor, error) {
	if n.ctx != nil {
		ctx = n.ctx
	}
	return Builtin.Axpby.call(ctx, op, []*Tensor{a, b}, Args{Floats: []float64{1, 1}}, false)
}

// vertex is a vertex of the graph Backward walks: a node, or a leaf that
// requires grad.
type vertex struct {
	n    *node
	leaf *Tensor
}

func (t *Tensor) vertex() vertex {
	if t.node == nil {
		return vertex{leaf: t}
	}
	return vertex{n: t.node}
}

// topoOrder returns the vertices that t depends on through inputs
// requiring grad, each after all of its inputs' (iterative DFS
// post-order): in reverse, a node comes after every node that consumes any
// of its outputs.
func topoOrder(t *Tensor) []vertex {
	type frame struct {
		v vertex
		i int
	}
	var order []vertex
	root := t.vertex()
	seen := map[vertex]bool{root: true}
	stack := []frame{{root, 0}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.v.n != nil && f.i < len(f.v.n.inputs) {
			in := f.v.n.inputs[f.i]
			f.i++
			if w := in.vertex(); in.requiresGrad.Load() && !seen[w] {
				seen[w] = true
				stack = append(stack, frame{w, 0})
			}
			continue
		}
		order = append(order, f.v)
		stack = stack[:len(stack)-1]
	}
	return order
}

// accumulateGrad adds g to the leaf's gradient. The first time, the leaf
// adopts g when Backward owns it and nothing else refers to it, and stores a
// private copy otherwise, so the gradient never aliases another tensor.
func (t *Tensor) accumulateGrad(ctx context.Context, g *Tensor, own *gradOwner) error {
	t.gradMu.Lock()
	defer t.gradMu.Unlock()
	if t.grad == nil && own.adopt(g) {
		t.grad = g
		return nil
	}
	var err error
	var sum *Tensor
	if t.grad == nil {
		sum, err = copyTensor(ctx, "Backward", g, false)
	} else {
		sum, err = Builtin.Axpby.call(ctx, "Backward", []*Tensor{t.grad, g}, Args{Floats: []float64{1, 1}}, false)
	}
	if err != nil {
		return err
	}
	t.grad = sum
	if err := own.drop(g); err != nil {
		return opErr("Backward", "", ErrGrad, "%v", err)
	}
	return nil
}

// FuncBackward computes the gradients of the inputs of a MultiOp call
// from the gradients of its outputs. It gets the context of the call
// without its cancellation (with ops/cuda, the
// forward's stream), one gradient per output (with the output's shape,
// dtype and device; nil for an output that received none, and at least one
// is not nil), the inputs detached, and the outputs detached (nil where the
// gradient is nil). It returns one gradient (or nil) per input, with the
// input's shape, dtype and device, computed with ops called with ctx; like
// an op's BackwardFunc, it returns gradients it has just computed, one of
// grads or a view of one, and keeps none of them.
type FuncBackward func(ctx context.Context, grads, in, outs []*Tensor) ([]*Tensor, error)

// recordOutputs makes outs the outputs of one autograd node named name over
// inputs, whose backward calls bw (MultiOp.Call's node).
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
