package nccl

// #include <stdlib.h>
// #include "ops/cuda/nccl/csrc/opsnccl.h"
import "C"

import (
	"context"
	"fmt"
	"strings"
	"unsafe"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// ReduceOp is the reduction of AllReduce, Reduce and ReduceScatter.
type ReduceOp int

// The reductions (ncclRedOp_t). Avg is the sum divided by the number of
// ranks, computed by NCCL in the tensor's dtype.
const (
	Sum ReduceOp = iota
	Prod
	Max
	Min
	Avg
)

func (o ReduceOp) String() string {
	switch o {
	case Sum:
		return "Sum"
	case Prod:
		return "Prod"
	case Max:
		return "Max"
	case Min:
		return "Min"
	case Avg:
		return "Avg"
	}
	return fmt.Sprintf("ReduceOp(%d)", int(o))
}

// call is one NCCL operation on tensors, before it is issued.
type call struct {
	kind       int
	name       string
	comm       *Comm
	send, recv *ops.Tensor // the same tensor for in-place operations
	op         ReduceOp
	peer       int // root or peer
}

// AllReduce replaces x, on every rank, with the reduction over the ranks
// of their x (in place, like torch.distributed.all_reduce). x must be a
// contiguous tensor on the communicator's GPU, of the same shape and dtype
// on every rank.
func (c *Comm) AllReduce(ctx context.Context, x *ops.Tensor, op ReduceOp) error {
	return run(ctx, false, []call{{kind: C.OPSNCCL_ALL_REDUCE, name: "AllReduce", comm: c, send: x, recv: x, op: op}})
}

// Broadcast replaces x, on every rank, with root's x (in place).
func (c *Comm) Broadcast(ctx context.Context, x *ops.Tensor, root int) error {
	return run(ctx, false, []call{{kind: C.OPSNCCL_BROADCAST, name: "Broadcast", comm: c, send: x, recv: x, peer: root}})
}

// Reduce replaces root's x with the reduction over the ranks of their x
// (in place); the other ranks' x are left as they are.
func (c *Comm) Reduce(ctx context.Context, x *ops.Tensor, op ReduceOp, root int) error {
	return run(ctx, false, []call{{kind: C.OPSNCCL_REDUCE, name: "Reduce", comm: c, send: x, recv: x, op: op, peer: root}})
}

// AllGather writes, on every rank, the ranks' in one after the other into
// out, whose first dimension is Size() times in's (the other dimensions
// alike); both contiguous.
func (c *Comm) AllGather(ctx context.Context, out, in *ops.Tensor) error {
	return run(ctx, false, []call{{kind: C.OPSNCCL_ALL_GATHER, name: "AllGather", comm: c, send: in, recv: out}})
}

// ReduceScatter reduces the ranks' in and writes block r of the result
// (in's first dimension divided into Size() blocks) into rank r's out,
// whose first dimension is in's divided by Size(); both contiguous.
func (c *Comm) ReduceScatter(ctx context.Context, out, in *ops.Tensor, op ReduceOp) error {
	return run(ctx, false, []call{{kind: C.OPSNCCL_REDUCE_SCATTER, name: "ReduceScatter", comm: c, send: in, recv: out, op: op}})
}

// Send sends x to rank peer, which must Recv a tensor of the same number
// of elements and dtype. A Send and its Recv on two ranks driven from one
// goroutine must be issued in one Group.
func (c *Comm) Send(ctx context.Context, x *ops.Tensor, peer int) error {
	return run(ctx, false, []call{{kind: C.OPSNCCL_SEND, name: "Send", comm: c, send: x, peer: peer}})
}

// Recv receives into x what rank peer Sends.
func (c *Comm) Recv(ctx context.Context, x *ops.Tensor, peer int) error {
	return run(ctx, false, []call{{kind: C.OPSNCCL_RECV, name: "Recv", comm: c, recv: x, peer: peer}})
}

// Group collects NCCL operations, on one or several communicators, to
// issue together between ncclGroupStart and ncclGroupEnd: Send/Recv pairs
// (an exchange between two ranks), several collectives fused into one
// launch, or the calls of all the ranks of an in-process communicator from
// one goroutine. The methods only record the operations; Run issues them.
// The zero Group is empty and ready to use.
type Group struct {
	calls []call
}

// AllReduce adds c.AllReduce(ctx, x, op) to the group.
func (g *Group) AllReduce(c *Comm, x *ops.Tensor, op ReduceOp) {
	g.calls = append(g.calls, call{kind: C.OPSNCCL_ALL_REDUCE, name: "AllReduce", comm: c, send: x, recv: x, op: op})
}

// Broadcast adds c.Broadcast(ctx, x, root) to the group.
func (g *Group) Broadcast(c *Comm, x *ops.Tensor, root int) {
	g.calls = append(g.calls, call{kind: C.OPSNCCL_BROADCAST, name: "Broadcast", comm: c, send: x, recv: x, peer: root})
}

// Reduce adds c.Reduce(ctx, x, op, root) to the group.
func (g *Group) Reduce(c *Comm, x *ops.Tensor, op ReduceOp, root int) {
	g.calls = append(g.calls, call{kind: C.OPSNCCL_REDUCE, name: "Reduce", comm: c, send: x, recv: x, op: op, peer: root})
}

// AllGather adds c.AllGather(ctx, out, in) to the group.
func (g *Group) AllGather(c *Comm, out, in *ops.Tensor) {
	g.calls = append(g.calls, call{kind: C.OPSNCCL_ALL_GATHER, name: "AllGather", comm: c, send: in, recv: out})
}

// ReduceScatter adds c.ReduceScatter(ctx, out, in, op) to the group.
func (g *Group) ReduceScatter(c *Comm, out, in *ops.Tensor, op ReduceOp) {
	g.calls = append(g.calls, call{kind: C.OPSNCCL_REDUCE_SCATTER, name: "ReduceScatter", comm: c, send: in, recv: out, op: op})
}

// Send adds c.Send(ctx, x, peer) to the group.
func (g *Group) Send(c *Comm, x *ops.Tensor, peer int) {
	g.calls = append(g.calls, call{kind: C.OPSNCCL_SEND, name: "Send", comm: c, send: x, peer: peer})
}

// Recv adds c.Recv(ctx, x, peer) to the group.
func (g *Group) Recv(c *Comm, x *ops.Tensor, peer int) {
	g.calls = append(g.calls, call{kind: C.OPSNCCL_RECV, name: "Recv", comm: c, recv: x, peer: peer})
}

// Len returns the number of operations recorded.
func (g *Group) Len() int { return len(g.calls) }

// Run issues the group's operations as one NCCL group, each on the stream
// ctx chooses for its communicator's GPU, and empties the group. Nothing
// is issued when an operation's arguments are wrong.
func (g *Group) Run(ctx context.Context) error {
	calls := g.calls
	g.calls = nil
	if len(calls) == 0 {
		return nil
	}
	return run(ctx, true, calls)
}

// dtypeCodes maps the dtypes NCCL reduces to the C API's codes.
var dtypeCodes = map[ops.DType]C.int{
	ops.Float32: C.OPSNCCL_FLOAT32, ops.Float64: C.OPSNCCL_FLOAT64,
	ops.Float16: C.OPSNCCL_FLOAT16, ops.BFloat16: C.OPSNCCL_BFLOAT16,
}

// check validates k's arguments and returns the number of elements NCCL
// is given (per rank; AllGather's and ReduceScatter's smaller buffer).
func (k *call) check() (int, error) {
	c := k.comm
	if c == nil {
		return 0, fmt.Errorf("nccl: %s: communicator is nil: %w", k.name, ops.ErrNil)
	}
	if k.op < Sum || k.op > Avg {
		return 0, fmt.Errorf("nccl: %s: reduction %v is not one of Sum, Prod, Max, Min, Avg: %w", k.name, k.op, ops.ErrArg)
	}
	switch k.kind {
	case C.OPSNCCL_BROADCAST, C.OPSNCCL_REDUCE:
		if k.peer < 0 || k.peer >= c.size {
			return 0, fmt.Errorf("nccl: %s on %v: root %d is not a rank (0 to %d): %w", k.name, c, k.peer, c.size-1, ops.ErrArg)
		}
	case C.OPSNCCL_SEND, C.OPSNCCL_RECV:
		if k.peer < 0 || k.peer >= c.size {
			return 0, fmt.Errorf("nccl: %s on %v: peer %d is not a rank (0 to %d): %w", k.name, c, k.peer, c.size-1, ops.ErrArg)
		}
	}
	var dtype ops.DType
	for _, a := range []struct {
		name string
		t    *ops.Tensor
	}{{"send", k.send}, {"recv", k.recv}} {
		t := a.t
		if t == nil {
			if (a.name == "send" && k.kind == C.OPSNCCL_RECV) || (a.name == "recv" && k.kind == C.OPSNCCL_SEND) {
				continue
			}
			return 0, fmt.Errorf("nccl: %s on %v: %s tensor is nil: %w", k.name, c, k.argName(a.name), ops.ErrNil)
		}
		if t.Device() != c.Device() {
			return 0, fmt.Errorf("nccl: %s on %v: %s is on %v, expected %v (the communicator's GPU): %w", k.name, c, k.argName(a.name), t.Device(), c.Device(), ops.ErrDevice)
		}
		if _, ok := dtypeCodes[t.DType()]; !ok {
			return 0, fmt.Errorf("nccl: %s: %s has dtype %v, which NCCL does not take here: %w", k.name, k.argName(a.name), t.DType(), ops.ErrDType)
		}
		if dtype != 0 && t.DType() != dtype {
			return 0, fmt.Errorf("nccl: %s: out has dtype %v, in has %v: they must match: %w", k.name, t.DType(), dtype, ops.ErrDType)
		}
		dtype = t.DType()
		if !t.IsContiguous() {
			return 0, fmt.Errorf("nccl: %s on %v: %s (shape %v, strides %v) is not contiguous: call Contiguous first: %w", k.name, c, k.argName(a.name), t.Shape(), t.Strides(), ops.ErrShape)
		}
	}
	switch k.kind {
	case C.OPSNCCL_SEND:
		return k.send.Numel(), nil
	case C.OPSNCCL_RECV:
		return k.recv.Numel(), nil
	case C.OPSNCCL_ALL_GATHER, C.OPSNCCL_REDUCE_SCATTER:
		small, big := k.send, k.recv
		if k.kind == C.OPSNCCL_REDUCE_SCATTER {
			small, big = k.recv, k.send
		}
		if big.Numel() != small.Numel()*c.size || !stacked(big.Shape(), small.Shape(), c.size) {
			return 0, fmt.Errorf("nccl: %s on %v: in has shape %v and out %v: the larger must be the smaller with its first dimension times %d (the ranks): %w", k.name, c, k.send.Shape(), k.recv.Shape(), c.size, ops.ErrShape)
		}
		return small.Numel(), nil
	}
	return k.send.Numel(), nil
}

// stacked reports whether big is small with its first dimension times n
// (or, for a 0-d small, the shape [n]).
func stacked(big, small []int, n int) bool {
	if len(small) == 0 {
		return len(big) == 1 && big[0] == n
	}
	if len(big) != len(small) || big[0] != small[0]*n {
		return false
	}
	for i := 1; i < len(big); i++ {
		if big[i] != small[i] {
			return false
		}
	}
	return true
}

func (k *call) argName(which string) string {
	switch k.kind {
	case C.OPSNCCL_ALL_GATHER, C.OPSNCCL_REDUCE_SCATTER:
		if which == "send" {
			return "in"
		}
		return "out"
	}
	return "x"
}

// run checks and issues calls (as one NCCL group when grouped) on the
// streams ctx chooses, ordered after the work that produced their tensors
// and before the later work of the tensors' streams, and watches them
// until they complete if ctx can be done.
func run(ctx context.Context, grouped bool, calls []call) error {
	if ctx == nil {
		return fmt.Errorf("nccl: %s: context is nil (use context.Background()): %w", calls[0].name, ops.ErrArg)
	}
	n := len(calls)
	counts := make([]int, n)
	for i := range calls {
		cnt, err := calls[i].check()
		if err != nil {
			return err
		}
		counts[i] = cnt
	}
	if err := agree(calls, counts); err != nil {
		return err
	}
	// Every communicator is read-locked while its calls are issued, so that
	// an abort cannot free it in the middle; each is locked once.
	var comms []*Comm
	for _, k := range calls {
		if !containsComm(comms, k.comm) {
			comms = append(comms, k.comm)
		}
	}
	ck := (*C.opsnccl_call)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(C.opsnccl_call{}))))
	defer C.free(unsafe.Pointer(ck))
	cs := unsafe.Slice(ck, n)
	launches := make([]*cuda.Launch, n)
	for i, k := range calls {
		var ts []*ops.Tensor
		switch {
		case k.send == nil:
			ts = []*ops.Tensor{k.recv}
		case k.recv == nil || k.recv == k.send:
			ts = []*ops.Tensor{k.send}
		default:
			ts = []*ops.Tensor{k.recv, k.send}
		}
		l, err := cuda.NewLaunch(ctx, ts...)
		if err != nil {
			return fmt.Errorf("nccl: %s on %v: %w", k.name, k.comm, err)
		}
		launches[i] = l
		cs[i] = C.opsnccl_call{
			kind: C.int(k.kind), dtype: dtypeCodes[ts[0].DType()], op: C.int(k.op), peer: C.int(k.peer),
			count: C.ulonglong(counts[i]), stream: C.ulonglong(l.Stream),
		}
		switch {
		case k.send == nil:
			cs[i].recv = C.ulonglong(l.Ptr[0])
		case k.recv == nil || k.recv == k.send:
			cs[i].send = C.ulonglong(l.Ptr[0])
			cs[i].recv = cs[i].send
		default:
			cs[i].recv, cs[i].send = C.ulonglong(l.Ptr[0]), C.ulonglong(l.Ptr[1])
		}
	}
	for _, c := range comms {
		c.mu.RLock()
	}
	var err error
	for i, k := range calls {
		var h C.opsnccl_comm
		if h, err = k.comm.usable(k.name); err != nil {
			break
		}
		cs[i].comm = h
	}
	var code C.int
	if err == nil {
		g := C.int(0)
		if grouped {
			g = 1
		}
		code = C.opsnccl_run(ck, C.int(n), g)
	}
	for _, c := range comms {
		c.mu.RUnlock()
	}
	if err != nil {
		return err
	}
	what := describe(calls)
	if code != resSuccess && code != resInProgress {
		err := check(what, code, 0)
		for _, c := range comms {
			c.abort(err)
		}
		return err
	}
	if code == resInProgress {
		for _, c := range comms {
			if err := c.ready(ctx, what); err != nil {
				return err
			}
		}
	}
	for i, l := range launches {
		if err := l.Check(calls[i].name, 0); err != nil {
			return fmt.Errorf("nccl: %s: %w", calls[i].name, err)
		}
	}
	for _, c := range comms {
		if err := c.watch(ctx, cuda.StreamFrom(ctx, c.device), what); err != nil {
			return err
		}
	}
	return nil
}

func containsComm(cs []*Comm, c *Comm) bool {
	for _, o := range cs {
		if o == c {
			return true
		}
	}
	return false
}

// describe names the calls for messages: "AllReduce" or "group of
// AllReduce, Send, Recv".
func describe(calls []call) string {
	if len(calls) == 1 {
		return calls[0].name
	}
	names := make([]string, len(calls))
	for i, k := range calls {
		names[i] = k.name
	}
	return "group of " + strings.Join(names, ", ")
}

// agree checks the collectives among calls against the other ranks' of
// in-process communicators (see clique), and advances the ranks'
// sequences.
func agree(calls []call, counts []int) error {
	for i, k := range calls {
		c := k.comm
		if c.clique == nil || k.kind == C.OPSNCCL_SEND || k.kind == C.OPSNCCL_RECV {
			continue
		}
		t := k.send
		if t == nil {
			t = k.recv
		}
		sig := signature{name: k.name, dtype: t.DType(), count: counts[i]}
		switch k.kind {
		case C.OPSNCCL_ALL_REDUCE, C.OPSNCCL_REDUCE_SCATTER:
			sig.op = k.op
		case C.OPSNCCL_REDUCE:
			sig.op, sig.root = k.op, k.peer
		case C.OPSNCCL_BROADCAST:
			sig.root = k.peer
		}
		c.seqMu.Lock()
		err := c.clique.agree(c.seq, c.rank, sig)
		if err == nil {
			c.seq++
		}
		c.seqMu.Unlock()
		if err != nil {
			err = fmt.Errorf("nccl: %s on %v: %w", k.name, c, err)
			c.clique.abort(err)
			return err
		}
	}
	return nil
}
