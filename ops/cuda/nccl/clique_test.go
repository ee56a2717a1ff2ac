package nccl

import (
	"errors"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
)

// TestCliqueAgree: ranks that make the same collectives agree (and the
// record of a position goes once every rank has passed it); a different
// count, dtype, reduction or operation is an ErrShape error naming both.
func TestCliqueAgree(t *testing.T) {
	q := &clique{comms: make([]*Comm, 2), calls: map[uint64]*record{}}
	a := signature{name: "AllReduce", dtype: ops.Float32, count: 1000, op: Sum}
	if err := q.agree(0, 0, a); err != nil {
		t.Fatal(err)
	}
	if err := q.agree(0, 1, a); err != nil {
		t.Fatal(err)
	}
	if len(q.calls) != 0 {
		t.Fatalf("%d positions still recorded after both ranks passed them", len(q.calls))
	}
	for _, b := range []signature{
		{name: "AllReduce", dtype: ops.Float32, count: 999, op: Sum},
		{name: "AllReduce", dtype: ops.Float64, count: 1000, op: Sum},
		{name: "AllReduce", dtype: ops.Float32, count: 1000, op: Max},
		{name: "Broadcast", dtype: ops.Float32, count: 1000},
	} {
		q := &clique{comms: make([]*Comm, 2), calls: map[uint64]*record{}}
		if err := q.agree(3, 1, a); err != nil {
			t.Fatal(err)
		}
		err := q.agree(3, 0, b)
		if !errors.Is(err, ops.ErrShape) {
			t.Fatalf("%v after %v: %v, want ErrShape", b, a, err)
		}
		t.Log(err)
	}
}
