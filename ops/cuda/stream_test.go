package cuda_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/half"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

// Without a GPU every entry point of the stream API reports ErrNoDevice
// (this part runs everywhere).
func TestStreamsNoDevice(t *testing.T) {
	if ok, _ := cuda.Available(); ok {
		t.Skip("a GPU is present: TestStreamsNoDevice checks the machines without one")
	}
	if _, err := cuda.NewStream(0); !errors.Is(err, cuda.ErrNoDevice) {
		t.Errorf("NewStream(0) = %v, want ErrNoDevice", err)
	}
	if _, err := cuda.DefaultStream(0); !errors.Is(err, cuda.ErrNoDevice) {
		t.Errorf("DefaultStream(0) = %v, want ErrNoDevice", err)
	}
	if _, err := cuda.NewEvent(0, true); !errors.Is(err, cuda.ErrNoDevice) {
		t.Errorf("NewEvent(0) = %v, want ErrNoDevice", err)
	}
	if _, err := cuda.NewPinned(ops.Float32, 16); !errors.Is(err, cuda.ErrNoDevice) {
		t.Errorf("NewPinned = %v, want ErrNoDevice", err)
	}
	if err := ops.Synchronize(context.Background(), ops.CUDA(0)); !errors.Is(err, cuda.ErrNoDevice) {
		t.Errorf("Synchronize = %v, want ErrNoDevice", err)
	}
	if _, err := cuda.Capture(context.Background(), nil, nil); !errors.Is(err, cuda.ErrNotCapturable) {
		t.Errorf("Capture(nil stream) = %v, want ErrNotCapturable", err)
	}
}

func newStream(t *testing.T) *cuda.Stream {
	t.Helper()
	s, err := cuda.NewStream(dev.Index)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

// busy queues n Polynomials of 2^24 float32 elements (about 0.1 ms each
// on an H100) on the stream of ctx, so that later work on other streams
// overlaps it. (Elementwise kernels use no shared memory, which keeps
// compute-sanitizer's racecheck fast.)
func busy(t *testing.T, ctx context.Context, n int) {
	t.Helper()
	m := must(t)
	a := m(m(ops.Full(0.5, ops.Float32, 1<<24)).To(context.Background(), dev))
	for range n {
		b := m(ops.Polynomial(ctx, a, 0, 0, 1, 0))
		a.Free()
		a = b
	}
	a.Free()
}

// Ops run on the stream of their context and give the default stream's
// results; outputs belong to that stream, and readers on other streams wait
// for it.
func TestOpsOnStreams(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	m := must(t)
	s1, s2 := newStream(t), newStream(t)
	c1, c2 := cuda.WithStream(context.Background(), s1), cuda.WithStream(context.Background(), s2)
	data := randData(90, 4099, -1, 1)
	x := m(fromData(t, ops.Float32, data).To(ctx, dev))
	want := values(t, m(ops.Polynomial(ctx, m(ops.AddScalar(ctx, x, 1)), 1, 2, 3, 4)))
	busy(t, c1, 20) // so that s2 really has to wait for s1
	y := m(ops.AddScalar(c1, x, 1))
	if got := get[*cuda.Stream](t)(cuda.StreamOf(y)); got != s1 {
		t.Errorf("AddScalarContext's output belongs to %v, want %v", got, s1)
	}
	z := m(ops.Polynomial(c2, y, 1, 2, 3, 4)) // s2 waits for s1
	rtol, atol := optest.Tolerance(ops.Float32)
	compare(t, "Polynomial on s2 of AddScalar on s1", values(t, z), want, rtol, atol)
	def, err := cuda.DefaultStream(dev.Index)
	if err != nil {
		t.Fatal(err)
	}
	if cuda.StreamFrom(context.Background(), dev.Index) != def {
		t.Error("StreamFrom(Background) is not the default stream")
	}
	if !cuda.StreamFrom(c1, dev.Index+1).IsDefault() {
		t.Error("a stream of cuda:0 was chosen for cuda:1")
	}
}

// get is must for any type: get[T](t)(f()) fails t if f fails.
func get[T any](tb testing.TB) func(T, error) T {
	return func(v T, err error) T {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		return v
	}
}

// The reuse race of a stream-unaware allocator: y is made on stream A,
// read on stream B (queued behind a millisecond of other work) and freed
// at once; the next allocation of its size on A must not get y's block
// before B has read it, or A's next kernel overwrites y under B. After B
// completes, the block is reused on A (the fence has completed).
func TestAllocatorReuseAcrossStreams(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	m := must(t)
	a, b := newStream(t), newStream(t)
	ca, cb := cuda.WithStream(context.Background(), a), cuda.WithStream(context.Background(), b)
	const n = 1 << 16
	ptr := func(x *ops.Tensor) uintptr { return devicePtr(t, x) }
	for round := range 5 {
		x := m(m(ops.Full(float64(round), ops.Float32, n)).To(ctx, dev))
		y := m(ops.AddScalar(ca, x, 1)) // y = round+1 on A
		busy(t, cb, 30)                 // B is busy for a while
		z := m(ops.AddScalar(cb, y, 1)) // B reads y after its busy work
		py := ptr(y)
		if err := y.Free(); err != nil {
			t.Fatal(err)
		}
		w := m(ops.AddScalar(ca, x, 1000)) // same size class on A
		if ptr(w) == py {
			t.Errorf("round %d: y's block was reused on stream A while stream B still had to read it", round)
		}
		compare(t, fmt.Sprintf("round %d: z = y+1 read on B", round), values(t, z), slices.Repeat([]float64{float64(round + 2)}, n), 0, 0)
		compare(t, fmt.Sprintf("round %d: w on A", round), values(t, w), slices.Repeat([]float64{float64(round + 1000)}, n), 0, 0)
		if err := b.Synchronize(context.Background()); err != nil {
			t.Fatal(err)
		}
		v := m(ops.AddScalar(ca, x, 2))
		if ptr(v) != py {
			t.Errorf("round %d: after B completed, the next allocation on A did not reuse y's block (%#x, got %#x)", round, py, ptr(v))
		}
		for _, u := range []*ops.Tensor{z, w, v, x} {
			u.Free()
		}
	}
	// Without any cross-stream use a block is reused on its stream at once.
	y := m(ops.AddScalar(ca, m(m(ops.Full(1, ops.Float32, n)).To(ctx, dev)), 1))
	py := ptr(y)
	y.Free()
	if w := m(ops.AddScalar(ca, y0(t, n), 1)); ptr(w) != py {
		t.Errorf("a block freed on A was not reused on A at once")
	}
}

func y0(t *testing.T, n int) *ops.Tensor {
	ctx := context.Background()
	m := must(t)
	return m(m(ops.Full(0, ops.Float32, n)).To(ctx, dev))
}

// NewLaunch keeps a tensor's block from reuse until the work of the
// launch's stream completes, for kernels this package does not launch.
func TestLaunchKeepsMemory(t *testing.T) {
	requireGPU(t)
	m := must(t)
	a, b := newStream(t), newStream(t)
	ca := cuda.WithStream(context.Background(), a)
	y := m(ops.AddScalar(ca, y0(t, 4096), 1))
	if err := b.WaitStream(a); err != nil {
		t.Fatal(err)
	}
	cb := cuda.WithStream(context.Background(), b)
	busy(t, cb, 30)
	l, err := cuda.NewLaunch(cb, y) // as if a kernel on b read y
	if err != nil {
		t.Fatal(err)
	}
	if l.Stream != b.Handle() || l.Device != dev.Index || l.N != 4096 || len(l.Ptr) != 1 {
		t.Fatalf("NewLaunch on %v = %+v", b, l)
	}
	if err := l.Check("a kernel that was not launched", 0); err != nil {
		t.Fatal(err)
	}
	p := devicePtr(t, y)
	y.Free()
	w := m(ops.AddScalar(ca, y0(t, 4096), 1))
	if devicePtr(t, w) == p {
		t.Error("a block recorded on a busy stream was reused before that stream's work completed")
	}
}

// Events order streams, report completion and time the work between them.
func TestEvents(t *testing.T) {
	ctx := context.Background()
	requireGPU(t)
	m := must(t)
	s1, s2 := newStream(t), newStream(t)
	start, end := get[*cuda.Event](t)(cuda.NewEvent(dev.Index, true)), get[*cuda.Event](t)(cuda.NewEvent(dev.Index, true))
	defer start.Close()
	defer end.Close()
	c1 := cuda.WithStream(context.Background(), s1)
	if err := start.Record(s1); err != nil {
		t.Fatal(err)
	}
	x := m(m(ops.Full(1, ops.Float64, 1<<20)).To(ctx, dev))
	busy(t, c1, 20)
	y := m(ops.AddScalar(c1, x, 1))
	if err := end.Record(s1); err != nil {
		t.Fatal(err)
	}
	if err := s2.WaitEvent(end); err != nil {
		t.Fatal(err)
	}
	if err := end.Synchronize(context.Background()); err != nil {
		t.Fatal(err)
	}
	if done, err := end.Done(); !done || err != nil {
		t.Errorf("Done after Synchronize = %v, %v", done, err)
	}
	el, err := cuda.Elapsed(start, end)
	if err != nil || el <= 0 {
		t.Errorf("Elapsed = %v, %v; want > 0", el, err)
	}
	t.Logf("20 Polynomials of 2^24 elements + AddScalar on a stream: %v (events)", el)
	compare(t, "AddScalar", values(t, y)[:4], []float64{2, 2, 2, 2}, 0, 0)
	plain := get[*cuda.Event](t)(cuda.NewEvent(dev.Index, false))
	defer plain.Close()
	if _, err := cuda.Elapsed(plain, end); !errors.Is(err, ops.ErrArg) {
		t.Errorf("Elapsed of a non-timing event = %v, want ErrArg", err)
	}
	plain.Close()
	if err := plain.Record(s1); !errors.Is(err, cuda.ErrClosed) {
		t.Errorf("Record on a closed event = %v, want ErrClosed", err)
	}
}

// Synchronize returns ctx.Err() when the deadline passes first; the work
// completes later with its memory intact.
func TestSynchronizeDeadline(t *testing.T) {
	requireGPU(t)
	m := must(t)
	s := newStream(t)
	ctx := cuda.WithStream(context.Background(), s)
	x := m(m(ops.Full(1, ops.Float32, 1<<20)).To(context.Background(), dev))
	busy(t, ctx, 300) // tens of milliseconds
	y := m(ops.AddScalar(ctx, x, 1))
	short, cancel := context.WithTimeout(ctx, time.Millisecond)
	defer cancel()
	t0 := time.Now()
	err := ops.Synchronize(short, dev)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Synchronize with a 1 ms deadline = %v after %v, want context.DeadlineExceeded", err, time.Since(t0))
	}
	if d := time.Since(t0); d > 50*time.Millisecond {
		t.Errorf("Synchronize returned %v after a 1 ms deadline", d)
	}
	if err := ops.Synchronize(context.Background(), dev); err != nil {
		t.Fatal(err)
	}
	compare(t, "result after the deadline", values(t, y)[:3], []float64{2, 2, 2}, 0, 0)
}

// addHalfThrough queues, on s (ctx's stream), a copy of in into x, y = x + 0.5 and a copy of y into
// out, waits for them, and returns y.
func addHalfThrough(t *testing.T, ctx context.Context, s *cuda.Stream, x *ops.Tensor, in, out *cuda.Pinned) *ops.Tensor {
	t.Helper()
	if err := cuda.CopyToDeviceAsync(ctx, x, in); err != nil {
		t.Fatal(err)
	}
	y := must(t)(ops.AddScalar(ctx, x, 0.5))
	if err := cuda.CopyToHostAsync(ctx, out, y); err != nil {
		t.Fatal(err)
	}
	if err := s.Synchronize(context.Background()); err != nil {
		t.Fatal(err)
	}
	return y
}

// Pinned buffers of the 16-bit dtypes carry their bit patterns both ways.
func TestPinnedHalfCopies(t *testing.T) {
	requireGPU(t)
	m := must(t)
	s := newStream(t)
	ctx := cuda.WithStream(context.Background(), s)
	const n = 1001
	for _, dtype := range []ops.DType{ops.Float16, ops.BFloat16} {
		in, out := get[*cuda.Pinned](t)(cuda.NewPinned(dtype, n)), get[*cuda.Pinned](t)(cuda.NewPinned(dtype, n))
		want := make([]float32, n)
		for i := range want {
			v := float32(i%100) / 8 // exact in both dtypes
			want[i] = v + 0.5
			if dtype == ops.Float16 {
				in.Float16()[i] = half.Float16From(v)
			} else {
				in.BFloat16()[i] = half.BFloat16From(v)
			}
		}
		if in.Float32() != nil || in.Float64() != nil || (dtype == ops.Float16) != (in.BFloat16() == nil) {
			t.Errorf("%v buffer: an accessor of another dtype is not nil", dtype)
		}
		addHalfThrough(t, ctx, s, m(m(ops.Zeros(dtype, n)).To(context.Background(), dev)), in, out)
		for i := range want {
			var got float32
			if dtype == ops.Float16 {
				got = out.Float16()[i].Float32()
			} else {
				got = out.BFloat16()[i].Float32()
			}
			if got != want[i] {
				t.Fatalf("%v: out[%d] = %v, want %v", dtype, i, got, want[i])
			}
		}
		in.Close()
		out.Close()
		if out.Float16() != nil || out.BFloat16() != nil {
			t.Errorf("%v: accessor after Close is not nil", dtype)
		}
	}
}

// Pinned buffers carry asynchronous copies both ways on a stream.
func TestPinnedAsyncCopies(t *testing.T) {
	requireGPU(t)
	m := must(t)
	s := newStream(t)
	ctx := cuda.WithStream(context.Background(), s)
	const n = 1<<20 + 3
	in, out := get[*cuda.Pinned](t)(cuda.NewPinned(ops.Float32, n)), get[*cuda.Pinned](t)(cuda.NewPinned(ops.Float32, n))
	defer in.Close()
	defer out.Close()
	for i := range in.Float32() {
		in.Float32()[i] = float32(i % 1000)
	}
	x := m(ops.AddScalar(context.Background(), y0(t, n), 0)) // on the default stream
	y := addHalfThrough(t, ctx, s, x, in, out)
	for i, v := range out.Float32() {
		if v != float32(i%1000)+0.5 {
			t.Fatalf("out[%d] = %v, want %v", i, v, float32(i%1000)+0.5)
		}
	}
	// The default stream sees the copy into x (it was x's stream's turn).
	if v := values(t, x)[999]; v != 999 {
		t.Errorf("x[999] on the default stream = %v, want 999", v)
	}
	small := get[*cuda.Pinned](t)(cuda.NewPinned(ops.Float32, 10))
	defer small.Close()
	if err := cuda.CopyToHostAsync(ctx, small, y); !errors.Is(err, ops.ErrShape) {
		t.Errorf("copy into a buffer too small = %v, want ErrShape", err)
	}
	f64 := get[*cuda.Pinned](t)(cuda.NewPinned(ops.Float64, n))
	defer f64.Close()
	if err := cuda.CopyToHostAsync(ctx, f64, y); !errors.Is(err, ops.ErrDType) {
		t.Errorf("copy into a float64 buffer = %v, want ErrDType", err)
	}
}

// A 20-op chain captured into a graph replays to the eager result, reads
// its fixed input as it is at each replay, and keeps its memory private.
func TestGraphReplay(t *testing.T) {
	requireGPU(t)
	m := must(t)
	rtol, atol := optest.Tolerance(ops.Float32)
	s := newStream(t)
	const n = 4096
	data := randData(91, n, -1, 1)
	x := m(fromData(t, ops.Float32, data).To(context.Background(), dev))
	chain := func(ctx context.Context, x *ops.Tensor) (*ops.Tensor, error) {
		y := x
		for i := range 20 {
			var err error
			if i%2 == 0 {
				y, err = ops.AddScalar(ctx, y, 0.25)
			} else {
				y, err = ops.Polynomial(ctx, y, 0, 0, 0.5, 0)
			}
			if err != nil {
				return nil, err
			}
		}
		return y, nil
	}
	want := values(t, m(chain(context.Background(), x)))
	var out *ops.Tensor
	g, err := cuda.Capture(context.Background(), s, func(ctx context.Context) error {
		var err error
		out, err = chain(ctx, x)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for range 3 {
		if err := g.Replay(); err != nil {
			t.Fatal(err)
		}
		compare(t, "graph replay", values(t, out), want, rtol, atol)
	}
	// New input values (written on the default stream) are read by the next replay.
	in := get[*cuda.Pinned](t)(cuda.NewPinned(ops.Float32, n))
	defer in.Close()
	for i := range in.Float32() {
		in.Float32()[i] = 1
	}
	if err := cuda.CopyToDeviceAsync(context.Background(), x, in); err != nil {
		t.Fatal(err)
	}
	want1 := values(t, m(chain(context.Background(), x)))
	if err := g.Replay(); err != nil {
		t.Fatal(err)
	}
	compare(t, "replay after the input changed", values(t, out), want1, rtol, atol)
	// Eager work allocating on the capture stream does not get graph memory.
	e := m(ops.AddScalar(cuda.WithStream(context.Background(), s), x, 1))
	if devicePtr(t, e) == devicePtr(t, out) {
		t.Error("an eager allocation got the graph's output block")
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if err := g.Replay(); !errors.Is(err, cuda.ErrClosed) {
		t.Errorf("Replay after Close = %v, want ErrClosed", err)
	}
	compare(t, "output after Close", values(t, out), want1, rtol, atol)
}

// Work that cannot be captured fails the capture with a clear error; the
// stream stays usable.
func TestGraphCaptureErrors(t *testing.T) {
	requireGPU(t)
	m := must(t)
	s := newStream(t)
	x := m(m(ops.Full(1, ops.Float32, 4096)).To(context.Background(), dev))
	for name, fn := range map[string]func(ctx context.Context) error{
		"host copy": func(ctx context.Context) error {
			y, err := ops.AddScalar(ctx, x, 1)
			if err != nil {
				return err
			}
			_, err = y.Float64s()
			return err
		},
		"synchronize": func(ctx context.Context) error {
			if _, err := ops.AddScalar(ctx, x, 1); err != nil {
				return err
			}
			return s.Synchronize(ctx)
		},
		"read on another stream": func(ctx context.Context) error {
			y, err := ops.AddScalar(ctx, x, 1)
			if err != nil {
				return err
			}
			_, err = ops.AddScalar(context.Background(), y, 1)
			return err
		},
	} {
		g, err := cuda.Capture(context.Background(), s, fn)
		if !errors.Is(err, cuda.ErrNotCapturable) || g != nil {
			t.Errorf("%s during capture: Capture = %v, %v; want ErrNotCapturable", name, g, err)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
	def, err := cuda.DefaultStream(dev.Index)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cuda.Capture(context.Background(), def, func(context.Context) error { return nil }); !errors.Is(err, cuda.ErrNotCapturable) {
		t.Errorf("Capture on the default stream = %v, want ErrNotCapturable", err)
	}
	boom := errors.New("boom")
	if _, err := cuda.Capture(context.Background(), s, func(context.Context) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("Capture whose function fails = %v, want that error", err)
	}
	y := m(ops.AddScalar(cuda.WithStream(context.Background(), s), x, 2))
	compare(t, "the stream after failed captures", values(t, y)[:2], []float64{3, 3}, 0, 0)
}

// Goroutines with a stream each run independent chains and get the right
// results; with -race this also checks the package's own bookkeeping.
func TestConcurrentStreams(t *testing.T) {
	requireGPU(t)
	const G, steps = 8, 200
	var wg sync.WaitGroup
	errs := make(chan error, G)
	for g := range G {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := cuda.NewStream(dev.Index)
			if err != nil {
				errs <- err
				return
			}
			defer s.Close()
			ctx := cuda.WithStream(context.Background(), s)
			x, err := ops.Full(float64(g), ops.Float32, 4096+g)
			if err == nil {
				x, err = x.To(context.Background(), dev)
			}
			for i := 0; err == nil && i < steps; i++ {
				var y *ops.Tensor
				y, err = ops.AddScalar(ctx, x, 1)
				if i%7 == 3 && err == nil {
					x.Free()
				}
				x = y
			}
			if err != nil {
				errs <- err
				return
			}
			if err := cuda.StreamFrom(ctx, dev.Index).Synchronize(ctx); err != nil {
				errs <- err
				return
			}
			v, err := x.Float64s()
			if err != nil {
				errs <- err
				return
			}
			if want := float64(g + steps); v[0] != want || v[len(v)-1] != want {
				errs <- fmt.Errorf("goroutine %d: %v ... %v, want %v", g, v[0], v[len(v)-1], want)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
