package fusecuda_test

import (
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/fuse/fusetest"
)

// BenchmarkCall4K times calls on 4096 float32 elements on CUDA device 0,
// where a call costs its host-side work (the kernel takes about 2 us):
// the polynomial as the hand-written op and as a chain with four scalar
// arguments, and the 20-op chain. The stream is synchronized once at the
// end, so the figure is the rate calls are queued at (as fusebench's 4K
// rows, which time them with CUDA events). Allocations per call are
// reported.
func BenchmarkCall4K(b *testing.B) {
	if ok, why := cuda.Available(); !ok {
		b.Skipf("no CUDA device: %v", why)
	}
	x, err := ops.Full(1, ops.Float32, 4096)
	if err == nil {
		x, err = x.To(ctx, ops.CUDA(0))
	}
	if err != nil {
		b.Fatal(err)
	}
	poly, c20 := fusetest.Polynomial(), fusetest.Chain20()
	in := []*ops.Tensor{x}
	for _, bc := range []struct {
		name string
		f    func() (*ops.Tensor, error)
	}{
		{"polynomial/op", func() (*ops.Tensor, error) { return ops.Polynomial(ctx, x, 0.5, -1.25, 2, 0.75) }},
		{"polynomial/fused", func() (*ops.Tensor, error) { return poly.Call1(ctx, in, 0.5, -1.25, 2, 0.75) }},
		{"chain20/fused", func() (*ops.Tensor, error) { return c20.Call1(ctx, in) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				y, err := bc.f()
				if err != nil {
					b.Fatal(err)
				}
				y.Free()
			}
			if err := ops.Synchronize(ctx, ops.CUDA(0)); err != nil {
				b.Fatal(err)
			}
		})
	}
}
