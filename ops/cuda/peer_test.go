package cuda_test

import (
	"context"
	"errors"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// requireGPUs skips the test, saying why, unless n CUDA devices can be used.
func requireGPUs(tb testing.TB, n int) {
	tb.Helper()
	requireGPU(tb)
	have, err := cuda.DeviceCount()
	if err != nil || have < n {
		tb.Skipf("skipping: the test needs %d GPUs, this machine has %d (%v)", n, have, err)
	}
}

// TestPeerCopy copies between two GPUs in every dtype, both ways, from
// contiguous and non-contiguous tensors and on non-default streams, and
// checks the values.
func TestPeerCopy(t *testing.T) {
	requireGPUs(t, 2)
	ctx := context.Background()
	direct, err := cuda.PeerAccess(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("peer access cuda:0 -> cuda:1: %v", direct)
	for _, dt := range []ops.DType{ops.Float32, ops.Float64, ops.Float16, ops.BFloat16} {
		x := must(t)(ops.Rand(7, dt, 33, 65))
		want := values(t, x)
		x0 := must(t)(x.To(ctx, ops.CUDA(0)))
		x1 := must(t)(x0.To(ctx, ops.CUDA(1)))
		if x1.Device() != ops.CUDA(1) {
			t.Fatalf("%v: To(cuda:1) gave a tensor on %v", dt, x1.Device())
		}
		equal(t, dt.String()+" 0->1", values(t, x1), want)
		back := must(t)(x1.To(ctx, ops.CUDA(0)))
		equal(t, dt.String()+" 1->0", values(t, back), want)
		// A transposed view is made contiguous first.
		tr := must(t)(x0.Transpose(0, 1))
		want = values(t, tr)
		equal(t, dt.String()+" transposed 0->1", values(t, must(t)(tr.To(ctx, ops.CUDA(1)))), want)
	}
}

// TestPeerCopyStreams produces the source on one stream of cuda:0 and
// copies it on a stream of cuda:1, then overwrites the source's memory: the
// copy must see the finished source and not the later write.
func TestPeerCopyStreams(t *testing.T) {
	requireGPUs(t, 2)
	s0, err := cuda.NewStream(0)
	if err != nil {
		t.Fatal(err)
	}
	defer s0.Close()
	s1, err := cuda.NewStream(1)
	if err != nil {
		t.Fatal(err)
	}
	defer s1.Close()
	ctx := cuda.WithStream(cuda.WithStream(context.Background(), s0), s1)
	x := must(t)(ops.Full(1, ops.Float32, 1<<24))
	x0 := must(t)(x.To(ctx, ops.CUDA(0)))
	for i := 0; i < 20; i++ {
		x0 = must(t)(ops.AddScalar(ctx, x0, 1)) // queued on s0, long enough to race
	}
	x1 := must(t)(x0.To(ctx, ops.CUDA(1)))
	if st, err := cuda.StreamOf(x1); err != nil || st != s1 {
		t.Fatalf("the copy belongs to %v (%v), want %v", st, err, s1)
	}
	x0.Free() // its memory goes back to s0's cache: the next op may reuse it
	y0 := must(t)(ops.Full(-5, ops.Float32, 1<<24))
	y0 = must(t)(y0.To(ctx, ops.CUDA(0)))
	_ = must(t)(ops.AddScalar(ctx, y0, 1))
	v := values(t, x1)
	for i, e := range v {
		if e != 21 {
			t.Fatalf("element %d of the copy is %v, want 21", i, e)
		}
	}
}

// TestPeerAccessErrors: devices that do not exist are ErrNoDevice errors.
func TestPeerAccessErrors(t *testing.T) {
	requireGPU(t)
	n, err := cuda.DeviceCount()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cuda.PeerAccess(0, n); !errors.Is(err, cuda.ErrNoDevice) {
		t.Fatalf("PeerAccess(0, %d) = %v, want ErrNoDevice", n, err)
	}
	if ok, err := cuda.PeerAccess(0, 0); err != nil || !ok {
		t.Fatalf("PeerAccess(0, 0) = %v, %v, want true", ok, err)
	}
}

func equal(tb testing.TB, what string, got, want []float64) {
	tb.Helper()
	if len(got) != len(want) {
		tb.Fatalf("%s: %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			tb.Fatalf("%s: element %d is %v, want %v", what, i, got[i], want[i])
		}
	}
}
