package fuse_test

import (
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse/fusetest"
)

// BenchmarkCallCPU4K times a call of the 20-op chain on 4096 float32
// elements on the CPU (the host-side cost of a call, plus the CPU path).
func BenchmarkCallCPU4K(b *testing.B) {
	c := fusetest.Chain20()
	x, _ := ops.Full(1, ops.Float32, 4096)
	in := []*ops.Tensor{x}
	b.ReportAllocs()
	for b.Loop() {
		y, err := c.Call1(ctx, in)
		if err != nil {
			b.Fatal(err)
		}
		y.Free()
	}
}
