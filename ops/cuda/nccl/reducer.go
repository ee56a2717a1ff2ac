package nccl

// #include "ops/cuda/nccl/csrc/opsnccl.h"
import "C"

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// DefaultBucketBytes is the bucket size of NewReducer when none is given:
// PyTorch DistributedDataParallel's bucket_cap_mb, 25 MiB.
const DefaultBucketBytes = 25 << 20

// ReducerOptions configures NewReducer. The zero value is DDP's defaults.
type ReducerOptions struct {
	// BucketBytes is the size a bucket is filled to (a parameter larger
	// than it gets a bucket of its own); 0 means DefaultBucketBytes.
	BucketBytes int
	// Sum reduces the ranks' gradients by their sum instead of their
	// average (DDP averages).
	Sum bool
	// Stream is the communication stream the buckets are copied and
	// all-reduced on; nil makes one (closed by Close).
	Stream *cuda.Stream
}

// Reducer all-reduces the gradients of a model's parameters while
// backward runs, in buckets, like PyTorch's DistributedDataParallel:
// parameters are assigned to buckets of about BucketBytes in reverse order
// (the order backward usually produces their gradients), one dtype per
// bucket; a hook on each parameter (ops.Tensor.AddGradHook) copies its
// gradient into its bucket on the communication stream as soon as Backward
// has it, and a bucket is all-reduced there once all of its gradients are
// in, while the rest of backward is still being computed. Buckets are
// launched in bucket order on every rank (a full bucket waits for the ones
// before it), so ranks issue the same collectives in the same order.
//
// A step is: ZeroGrad the parameters (or not, to accumulate), Backward,
// then Wait, which all-reduces the buckets not launched yet (a parameter
// that got no gradient in this pass, unused on this rank, contributes
// zeros, so every rank reduces every bucket), makes ctx's stream wait for
// the reductions (on the device: the host does not wait) and writes the
// reduced gradient into each parameter's Grad (giving a parameter without
// one a new gradient), so the optimizer's ops, queued on ctx's stream, see
// them. A Reducer is driven by one goroutine.
type Reducer struct {
	comm    *Comm
	op      ReduceOp
	stream  *cuda.Stream
	own     bool // stream made by NewReducer
	buckets []*bucket
	where   map[*ops.Tensor]loc
	order   []*ops.Tensor // the parameters, in the caller's order
	removes []func()

	mu   sync.Mutex
	next int   // the next bucket to launch
	err  error // the first error of a hook in this pass (also returned by Backward)
}

// bucket is a flat buffer for the gradients of params, param i at element
// offs[i].
type bucket struct {
	dtype  ops.DType
	params []*ops.Tensor
	offs   []int
	numel  int
	buf    *ops.Tensor // on the communication stream
	ready  []bool
	nready int
}

// loc is where a parameter's gradient goes.
type loc struct{ b, i int }

// plan assigns params (of dtypes, each of numels elements) to buckets in
// reverse order, one dtype per bucket, each filled until it holds at least
// capBytes: it returns the buckets' parameter indices in bucket order.
func plan(dtypes []ops.DType, numels []int, capBytes int) [][]int {
	var out [][]int
	open := map[ops.DType]int{} // dtype -> index in out of its bucket being filled
	bytes := map[ops.DType]int{}
	for i := len(dtypes) - 1; i >= 0; i-- {
		d := dtypes[i]
		b, ok := open[d]
		if !ok {
			b = len(out)
			out = append(out, nil)
			open[d] = b
			bytes[d] = 0
		}
		out[b] = append(out[b], i)
		bytes[d] += numels[i] * d.Size()
		if bytes[d] >= capBytes {
			delete(open, d)
		}
	}
	return out
}

// NewReducer prepares the bucketed all-reduce of the gradients of params
// (leaves on the communicator's GPU that require grad; each at most once)
// over comm's ranks, which must pass the same parameters (shapes and
// dtypes) in the same order. It allocates the buckets and adds a grad hook
// to each parameter; Close removes them.
func NewReducer(ctx context.Context, comm *Comm, params []*ops.Tensor, opts ReducerOptions) (*Reducer, error) {
	if ctx == nil {
		return nil, fmt.Errorf("nccl: NewReducer: context is nil (use context.Background()): %w", ops.ErrArg)
	}
	if comm == nil {
		return nil, fmt.Errorf("nccl: NewReducer: communicator is nil: %w", ops.ErrNil)
	}
	if len(params) == 0 {
		return nil, fmt.Errorf("nccl: NewReducer: no parameters: %w", ops.ErrArg)
	}
	capBytes := opts.BucketBytes
	if capBytes == 0 {
		capBytes = DefaultBucketBytes
	}
	if capBytes < 0 {
		return nil, fmt.Errorf("nccl: NewReducer: BucketBytes %d is negative: %w", capBytes, ops.ErrArg)
	}
	dtypes := make([]ops.DType, len(params))
	numels := make([]int, len(params))
	seen := map[*ops.Tensor]bool{}
	for i, p := range params {
		switch {
		case p == nil:
			return nil, fmt.Errorf("nccl: NewReducer: parameter %d is nil: %w", i, ops.ErrNil)
		case seen[p]:
			return nil, fmt.Errorf("nccl: NewReducer: parameter %d is listed twice: %w", i, ops.ErrArg)
		case p.Device() != comm.Device():
			return nil, fmt.Errorf("nccl: NewReducer: parameter %d is on %v, the communicator's GPU is %v: %w", i, p.Device(), comm.Device(), ops.ErrDevice)
		case !p.IsLeaf() || !p.RequiresGrad():
			return nil, fmt.Errorf("nccl: NewReducer: parameter %d is not a leaf that requires grad: %w", i, ops.ErrGrad)
		}
		if _, ok := dtypeCodes[p.DType()]; !ok {
			return nil, fmt.Errorf("nccl: NewReducer: parameter %d has dtype %v, which NCCL does not take here: %w", i, p.DType(), ops.ErrDType)
		}
		seen[p] = true
		dtypes[i], numels[i] = p.DType(), p.Numel()
	}
	r := &Reducer{comm: comm, op: Avg, stream: opts.Stream, where: map[*ops.Tensor]loc{}, order: slices.Clone(params)}
	if opts.Sum {
		r.op = Sum
	}
	if r.stream == nil {
		s, err := cuda.NewStream(comm.device)
		if err != nil {
			return nil, fmt.Errorf("nccl: NewReducer: %w", err)
		}
		r.stream, r.own = s, true
	}
	cctx := cuda.WithStream(ctx, r.stream)
	for bi, idx := range plan(dtypes, numels, capBytes) {
		b := &bucket{dtype: dtypes[idx[0]], ready: make([]bool, len(idx))}
		for i, pi := range idx {
			b.params = append(b.params, params[pi])
			b.offs = append(b.offs, b.numel)
			b.numel += numels[pi]
			r.where[params[pi]] = loc{bi, i}
		}
		z, err := ops.Zeros(b.dtype, b.numel)
		if err == nil {
			b.buf, err = z.To(cctx, comm.Device())
			z.Free()
		}
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("nccl: NewReducer: bucket %d (%d elements): %w", bi, b.numel, err)
		}
		r.buckets = append(r.buckets, b)
	}
	for _, p := range params {
		remove, err := p.AddGradHook(r.hook)
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("nccl: NewReducer: %w", err)
		}
		r.removes = append(r.removes, remove)
	}
	return r, nil
}

// SetParams replaces the parameters, for an optimizer that makes new
// parameter tensors (ops are functional: W' = W - lr·g is a new tensor):
// params must match the ones the Reducer has, in order, in shape, dtype and
// device, and be leaves that require grad. The hooks move to them; call it
// between Wait and the next Backward.
func (r *Reducer) SetParams(params []*ops.Tensor) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.buckets == nil {
		return fmt.Errorf("nccl: Reducer.SetParams: the reducer is closed: %w", ErrClosed)
	}
	if len(params) != len(r.order) {
		return fmt.Errorf("nccl: Reducer.SetParams: %d parameters, the reducer has %d: %w", len(params), len(r.order), ops.ErrArg)
	}
	for i, p := range params {
		old := r.order[i]
		if p == nil {
			return fmt.Errorf("nccl: Reducer.SetParams: parameter %d is nil: %w", i, ops.ErrNil)
		}
		if p.DType() != old.DType() || p.Device() != old.Device() || !slices.Equal(p.Shape(), old.Shape()) {
			return fmt.Errorf("nccl: Reducer.SetParams: parameter %d is %v, want shape %v, dtype %v on %v: %w", i, p, old.Shape(), old.DType(), old.Device(), ops.ErrShape)
		}
		if !p.IsLeaf() || !p.RequiresGrad() {
			return fmt.Errorf("nccl: Reducer.SetParams: parameter %d is not a leaf that requires grad: %w", i, ops.ErrGrad)
		}
	}
	for _, remove := range r.removes {
		remove()
	}
	r.removes = r.removes[:0]
	where := make(map[*ops.Tensor]loc, len(params))
	for i, p := range params {
		l := r.where[r.order[i]]
		r.buckets[l.b].params[l.i] = p
		where[p] = l
	}
	r.where, r.order = where, slices.Clone(params)
	for _, p := range params {
		remove, err := p.AddGradHook(r.hook)
		if err != nil {
			return fmt.Errorf("nccl: Reducer.SetParams: %w", err)
		}
		r.removes = append(r.removes, remove)
	}
	return nil
}

// Buckets returns the number of buckets.
func (r *Reducer) Buckets() int { return len(r.buckets) }

// Stream returns the communication stream.
func (r *Reducer) Stream() *cuda.Stream { return r.stream }

// hook is every parameter's grad hook: it copies the gradient into its
// bucket and launches the buckets that are full, in order.
func (r *Reducer) hook(ctx context.Context, p *ops.Tensor) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	l, ok := r.where[p]
	if !ok {
		return nil // removed by Close meanwhile
	}
	b := r.buckets[l.b]
	if b.ready[l.i] {
		r.err = fmt.Errorf("nccl: Reducer: a parameter (%v) got a second gradient before Wait (call Wait after each Backward): %w", p, ops.ErrGrad)
		return r.err
	}
	cctx := cuda.WithStream(ctx, r.stream)
	if err := r.copyIn(cctx, b, l.i, p.Grad()); err != nil {
		r.err = err
		return err
	}
	if err := r.launch(cctx); err != nil {
		r.err = err
		return err
	}
	return nil
}

// copyIn copies g (nil: zeros) into slot i of b, on the communication
// stream, after the work that produced g.
func (r *Reducer) copyIn(cctx context.Context, b *bucket, i int, g *ops.Tensor) error {
	p := b.params[i]
	dst, err := b.buf.Narrow(0, b.offs[i], p.Numel())
	if err != nil {
		return fmt.Errorf("nccl: Reducer: %w", err)
	}
	bytes := C.ulonglong(p.Numel() * b.dtype.Size())
	if g == nil {
		l, err := cuda.NewLaunch(cctx, dst)
		if err != nil {
			return fmt.Errorf("nccl: Reducer: zeroing the bucket slot of %v: %w", p, err)
		}
		if err := l.Check("zeroing a bucket slot", int(C.opsnccl_zero(C.int(l.Device), C.ulonglong(l.Ptr[0]), bytes, C.ulonglong(l.Stream)))); err != nil {
			return fmt.Errorf("nccl: Reducer: %w", err)
		}
		b.ready[i] = true
		b.nready++
		return nil
	}
	if !g.IsContiguous() {
		if g, err = g.Contiguous(cctx); err != nil {
			return fmt.Errorf("nccl: Reducer: %w", err)
		}
	}
	l, err := cuda.NewLaunch(cctx, dst, g)
	if err != nil {
		return fmt.Errorf("nccl: Reducer: copying the gradient of %v into its bucket: %w", p, err)
	}
	code := C.opsnccl_copy(C.int(l.Device), C.ulonglong(l.Ptr[0]), C.ulonglong(l.Ptr[1]), bytes, C.ulonglong(l.Stream))
	if err := l.Check("copying a gradient into its bucket", int(code)); err != nil {
		return fmt.Errorf("nccl: Reducer: %w", err)
	}
	b.ready[i] = true
	b.nready++
	return nil
}

// launch all-reduces the full buckets from r.next on, in order.
func (r *Reducer) launch(cctx context.Context) error {
	for r.next < len(r.buckets) {
		b := r.buckets[r.next]
		if b.nready < len(b.params) {
			return nil
		}
		if err := r.comm.AllReduce(cctx, b.buf, r.op); err != nil {
			return fmt.Errorf("nccl: Reducer: bucket %d: %w", r.next, err)
		}
		r.next++
	}
	return nil
}

// Wait completes the pass: it all-reduces the buckets not launched yet
// (zeros for the parameters that got no gradient), makes ctx's stream wait
// for the reductions, writes each parameter's reduced gradient into its
// Grad and readies the buckets for the next pass. It returns the first
// error of the pass's hooks, if any.
func (r *Reducer) Wait(ctx context.Context) error {
	if ctx == nil {
		return fmt.Errorf("nccl: Reducer.Wait: context is nil (use context.Background()): %w", ops.ErrArg)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	defer r.reset()
	if r.err != nil {
		return r.err
	}
	cctx := cuda.WithStream(ctx, r.stream)
	for bi := r.next; bi < len(r.buckets); bi++ {
		b := r.buckets[bi]
		for i, ok := range b.ready {
			if !ok {
				if err := r.copyIn(cctx, b, i, nil); err != nil {
					return err
				}
			}
		}
	}
	if err := r.launch(cctx); err != nil {
		return err
	}
	for _, b := range r.buckets {
		for i, p := range b.params {
			src, err := b.buf.Narrow(0, b.offs[i], p.Numel())
			if err != nil {
				return fmt.Errorf("nccl: Reducer.Wait: %w", err)
			}
			g := p.Grad()
			if g == nil || !g.IsContiguous() {
				if g, err = newGrad(ctx, p); err != nil {
					return err
				}
				if err := p.SetGrad(g); err != nil {
					return fmt.Errorf("nccl: Reducer.Wait: %w", err)
				}
			}
			// On ctx's stream, after the bucket's reduction (its stream's work).
			l, err := cuda.NewLaunch(ctx, g, src)
			if err != nil {
				return fmt.Errorf("nccl: Reducer.Wait: %w", err)
			}
			code := C.opsnccl_copy(C.int(l.Device), C.ulonglong(l.Ptr[0]), C.ulonglong(l.Ptr[1]), C.ulonglong(p.Numel()*b.dtype.Size()), C.ulonglong(l.Stream))
			if err := l.Check("copying a reduced gradient out of its bucket", int(code)); err != nil {
				return fmt.Errorf("nccl: Reducer.Wait: %w", err)
			}
		}
	}
	// The next pass's copies into the buckets come after these reads.
	if err := r.stream.WaitStream(cuda.StreamFrom(ctx, r.comm.device)); err != nil {
		return fmt.Errorf("nccl: Reducer.Wait: %w", err)
	}
	return nil
}

// newGrad returns a zero gradient for p on its device.
func newGrad(ctx context.Context, p *ops.Tensor) (*ops.Tensor, error) {
	z, err := ops.Zeros(p.DType(), p.Shape()...)
	if err != nil {
		return nil, fmt.Errorf("nccl: Reducer.Wait: %w", err)
	}
	defer z.Free()
	g, err := z.To(ctx, p.Device())
	if err != nil {
		return nil, fmt.Errorf("nccl: Reducer.Wait: %w", err)
	}
	return g, nil
}

// reset readies the buckets for the next pass.
func (r *Reducer) reset() {
	for _, b := range r.buckets {
		clear(b.ready)
		b.nready = 0
	}
	r.next = 0
	r.err = nil
}

// Close removes the grad hooks and frees the buckets (and the stream
// NewReducer made), after the work queued on them. Closing a closed
// Reducer does nothing.
func (r *Reducer) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, remove := range r.removes {
		remove()
	}
	r.removes = nil
	r.where = map[*ops.Tensor]loc{}
	for _, b := range r.buckets {
		if b.buf != nil {
			b.buf.Free()
		}
	}
	r.buckets = nil
	if r.own && r.stream != nil {
		err := r.stream.Close()
		r.stream = nil
		return err
	}
	return nil
}
