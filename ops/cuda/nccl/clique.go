package nccl

import (
	"fmt"
	"sync"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// clique is what the ranks of a communicator made by NewComms share in
// this process: the signature of each collective by its position in each
// rank's sequence, so that a rank whose collective does not match another
// rank's (a different operation, dtype, count, reduction or root) gets an
// error instead of hanging or corrupting. Ranks in other processes cannot
// be checked. Send and Recv are not part of the sequence (they pair up two
// ranks only).
type clique struct {
	mu    sync.Mutex
	comms []*Comm
	calls map[uint64]*record // by position in the ranks' sequences
}

// signature is what every rank must agree on for one collective.
type signature struct {
	name  string
	dtype ops.DType
	count int
	op    ReduceOp
	root  int
}

func (s signature) String() string {
	str := fmt.Sprintf("%s of %d %v elements", s.name, s.count, s.dtype)
	switch s.name {
	case "AllReduce", "ReduceScatter":
		str += fmt.Sprintf(" (%v)", s.op)
	case "Reduce":
		str += fmt.Sprintf(" (%v to root %d)", s.op, s.root)
	case "Broadcast":
		str += fmt.Sprintf(" (root %d)", s.root)
	}
	return str
}

type record struct {
	sig   signature
	rank  int // the first rank that made the call
	ranks int // how many ranks have made it
}

// abort aborts every rank (a mismatch leaves the ranks that made the
// other call waiting for ever), without waiting for NCCL (see abortSoon).
func (q *clique) abort(why error) {
	for _, c := range q.comms {
		c.abortSoon(why)
	}
}

// agree records rank's collective at position seq of its sequence and
// returns an error if another rank made a different one there.
func (q *clique) agree(seq uint64, rank int, sig signature) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	s, ok := q.calls[seq]
	if !ok {
		q.calls[seq] = &record{sig: sig, rank: rank, ranks: 1}
		return nil
	}
	if s.sig != sig {
		return fmt.Errorf("collective %d of rank %d is %v, but rank %d's is %v: every rank must make the same collectives in the same order with the same counts, dtypes and arguments: %w", seq+1, rank, sig, s.rank, s.sig, ops.ErrShape)
	}
	if s.ranks++; s.ranks == len(q.comms) {
		delete(q.calls, seq)
	}
	return nil
}
