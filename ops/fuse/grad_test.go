package fuse_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse/fusetest"
)

// TestGradCheckMultiOutput: GradCheck through chains of two and three
// outputs with broadcast inputs, the loss using all or some outputs, in
// float64, and float32's gradients against float64's.
func TestGradCheckMultiOutput(t *testing.T) {
	if err := fusetest.CheckGradMultiOutput(ctx, ops.CPU); err != nil {
		t.Error(err)
	}
}

// TestOneBackwardPerCall: a chain call is one autograd node: Backward runs
// its backward once, with the gradients of every output the loss used,
// however many outputs it has and however often each is used.
func TestOneBackwardPerCall(t *testing.T) {
	type call struct {
		chain string
		with  []int
	}
	var calls []call
	defer fuse.SetTestHookBackward(func(c *fuse.Chain, with []int) {
		calls = append(calls, call{c.Name(), slices.Clone(with)})
	})()
	for _, c := range fusetest.MultiCases() {
		for _, use := range c.Uses {
			t.Run(fmt.Sprint(c.Name, use), func(t *testing.T) {
				in, err := fusetest.MultiInputs(ctx, c, ops.Float64, ops.CPU)
				if err != nil {
					t.Fatal(err)
				}
				loss, err := fusetest.MultiLoss(ctx, c, in, use)
				if err != nil {
					t.Fatal(err)
				}
				calls = nil
				if err := loss.Backward(ctx); err != nil {
					t.Fatal(err)
				}
				want := slices.Compact(slices.Sorted(slices.Values(use)))
				if len(calls) != 1 || calls[0].chain != c.Name || !slices.Equal(calls[0].with, want) {
					t.Fatalf("backward calls %v, want one of %s with the gradients of outputs %v", calls, c.Name, want)
				}
			})
		}
	}
	// Two calls of one chain are two nodes.
	c := fusetest.MultiCases()[0]
	in, err := fusetest.MultiInputs(ctx, c, ops.Float64, ops.CPU)
	if err != nil {
		t.Fatal(err)
	}
	l1, err := fusetest.MultiLoss(ctx, c, in, []int{0})
	if err != nil {
		t.Fatal(err)
	}
	l2, err := fusetest.MultiLoss(ctx, c, in, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	loss, err := ops.Axpby(ctx, 1, l1, 1, l2)
	if err != nil {
		t.Fatal(err)
	}
	calls = nil
	if err := loss.Backward(ctx); err != nil {
		t.Fatal(err)
	}
	if len(calls) != 2 {
		t.Fatalf("two calls of a chain ran %d backward calls (%v), want 2", len(calls), calls)
	}
}

// TestGradSourceFor: the backward kernel of a call whose outputs 0 and 2
// received gradients reads both (inputs 3 and 4 after the chain's three).
func TestGradSourceFor(t *testing.T) {
	c := fusetest.MultiCases()[1].Chain
	src, err := c.GradSourceFor([]int{0, 2}, 64, ops.Float32, ops.Float32, ops.Float32)
	if err != nil {
		t.Fatal(err)
	}
	one, err := c.GradSourceFor([]int{0}, 64, ops.Float32, ops.Float32, ops.Float32)
	if err != nil {
		t.Fatal(err)
	}
	if src == "" || src == one {
		t.Fatalf("GradSourceFor([0 2]) is empty or the same as GradSourceFor([0]):\n%s", src)
	}
	for _, bad := range [][]int{nil, {2, 0}, {0, 0}, {3}} {
		if _, err := c.GradSourceFor(bad, 64, ops.Float32, ops.Float32, ops.Float32); err == nil {
			t.Errorf("GradSourceFor(%v) succeeded, want an error", bad)
		}
	}
}
