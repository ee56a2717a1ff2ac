package nccl_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/nccl"
	"github.com/rules-cuda-go/rules_cuda_go/ops/optest"
)

var dtypes = []ops.DType{ops.Float32, ops.Float64, ops.Float16, ops.BFloat16}

// requireNCCL skips the test, saying why, unless n GPUs and NCCL can be
// used; with $RULES_CUDA_GO_REQUIRE_NCCL=1 a missing NCCL fails instead.
func requireNCCL(tb testing.TB, n int) {
	tb.Helper()
	if ok, err := cuda.Available(); !ok {
		tb.Skipf("skipping: no usable CUDA device (%v)", err)
	}
	if have, err := cuda.DeviceCount(); err != nil || have < n {
		tb.Skipf("skipping: the test needs %d GPUs, this machine has %d (%v)", n, have, err)
	}
	if _, _, err := nccl.Info(); err != nil {
		if os.Getenv("RULES_CUDA_GO_REQUIRE_NCCL") == "1" {
			tb.Fatal(err)
		}
		tb.Skipf("skipping: %v", err)
	}
}

// gpus returns the number of GPUs to use: all of them.
func gpus(tb testing.TB) int {
	n, err := cuda.DeviceCount()
	if err != nil {
		tb.Fatal(err)
	}
	return n
}

func devices(n int) []int {
	d := make([]int, n)
	for i := range d {
		d[i] = i
	}
	return d
}

func newComms(tb testing.TB, n int) []*nccl.Comm {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	comms, err := nccl.NewComms(ctx, devices(n))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		for _, c := range comms {
			if err := c.Close(ctx); err != nil {
				tb.Error(err)
			}
		}
	})
	return comms
}

// each runs fn for every rank in its own goroutine and fails on errors.
func each(tb testing.TB, comms []*nccl.Comm, fn func(c *nccl.Comm) error) {
	tb.Helper()
	errs := make([]error, len(comms))
	var wg sync.WaitGroup
	for i, c := range comms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = fn(c)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		tb.Fatal(err)
	}
}

// value is element i of rank r's input.
func value(r, i int) float64 { return float64(i%7 + r + 1) }

func input(c *nccl.Comm, dt ops.DType, n int) (*ops.Tensor, error) {
	v := make([]float64, n)
	for i := range v {
		v[i] = value(c.Rank(), i)
	}
	x, err := ops.FromFloat64(v, n)
	if err != nil {
		return nil, err
	}
	if x, err = x.AsType(context.Background(), dt); err != nil {
		return nil, err
	}
	return x.To(context.Background(), c.Device())
}

func reduce(op nccl.ReduceOp, ranks []int, i int) float64 {
	acc := value(ranks[0], i)
	for _, r := range ranks[1:] {
		v := value(r, i)
		switch op {
		case nccl.Sum, nccl.Avg:
			acc += v
		case nccl.Prod:
			acc *= v
		case nccl.Max:
			acc = math.Max(acc, v)
		case nccl.Min:
			acc = math.Min(acc, v)
		}
	}
	if op == nccl.Avg {
		acc /= float64(len(ranks))
	}
	return acc
}

// zerosOn returns a tensor of zeros of dtype dt and shape on dev.
func zerosOn(dev ops.Device, dt ops.DType, shape ...int) (*ops.Tensor, error) {
	x, err := ops.Zeros(dt, shape...)
	if err != nil {
		return nil, err
	}
	return x.To(context.Background(), dev)
}

// compare reads x and checks each element i against want(i) within dt's
// tolerance for results computed in several rounded steps (the tolerance
// table's chain column, optest.ChainTolerance); what names the result in
// errors.
func compare(what string, dt ops.DType, x *ops.Tensor, want func(i int) float64) error {
	got, err := x.Float64s()
	if err != nil {
		return fmt.Errorf("%s %v: reading the result: %w", what, dt, err)
	}
	w := make([]float64, len(got))
	for i := range w {
		w[i] = want(i)
	}
	rtol, atol := optest.ChainTolerance(dt)
	if err := optest.Compare(got, w, rtol, atol); err != nil {
		return fmt.Errorf("%s %v: %w", what, dt, err)
	}
	return nil
}

// TestCollectives runs every collective in every dtype on all the GPUs,
// one goroutine per rank (on one GPU: a communicator of one rank).
func TestCollectives(t *testing.T) {
	requireNCCL(t, 1)
	n := gpus(t)
	comms := newComms(t, n)
	ctx := context.Background()
	ranks := devices(n)
	const m = 1000
	for _, dt := range dtypes {
		for _, op := range []nccl.ReduceOp{nccl.Sum, nccl.Prod, nccl.Max, nccl.Min, nccl.Avg} {
			each(t, comms, func(c *nccl.Comm) error {
				x, err := input(c, dt, m)
				if err != nil {
					return err
				}
				if err := c.AllReduce(ctx, x, op); err != nil {
					return err
				}
				return compare(fmt.Sprintf("rank %d AllReduce %v", c.Rank(), op), dt, x, func(i int) float64 { return reduce(op, ranks, i) })
			})
		}
		each(t, comms, func(c *nccl.Comm) error {
			root := n - 1
			x, err := input(c, dt, m)
			if err != nil {
				return err
			}
			if err := c.Broadcast(ctx, x, root); err != nil {
				return err
			}
			if err := compare(fmt.Sprintf("rank %d Broadcast", c.Rank()), dt, x, func(i int) float64 { return value(root, i) }); err != nil {
				return err
			}
			// Reduce to rank 0: the others keep their input.
			y, err := input(c, dt, m)
			if err != nil {
				return err
			}
			if err := c.Reduce(ctx, y, nccl.Sum, 0); err != nil {
				return err
			}
			want := func(i int) float64 { return value(c.Rank(), i) }
			if c.Rank() == 0 {
				want = func(i int) float64 { return reduce(nccl.Sum, ranks, i) }
			}
			if err := compare(fmt.Sprintf("rank %d Reduce", c.Rank()), dt, y, want); err != nil {
				return err
			}
			// AllGather into [n*m/10, 10], then ReduceScatter back.
			in, err := input(c, dt, m)
			if err != nil {
				return err
			}
			if in, err = in.Reshape(m/10, 10); err != nil {
				return err
			}
			out, err := zerosOn(c.Device(), dt, n*m/10, 10)
			if err != nil {
				return err
			}
			if err := c.AllGather(ctx, out, in); err != nil {
				return err
			}
			if err := compare(fmt.Sprintf("rank %d AllGather", c.Rank()), dt, out, func(i int) float64 { return value(i/m, i%m) }); err != nil {
				return err
			}
			part, err := zerosOn(c.Device(), dt, m/10, 10)
			if err != nil {
				return err
			}
			if err := c.ReduceScatter(ctx, part, out, nccl.Sum); err != nil {
				return err
			}
			// out is the same on every rank, so block r of the sum is n times rank r's input.
			return compare(fmt.Sprintf("rank %d ReduceScatter", c.Rank()), dt, part, func(i int) float64 { return float64(n) * value(c.Rank(), i) })
		})
	}
}

// TestSendRecvRing passes each rank's tensor to the next rank (a ring, so
// each rank sends and receives in one group).
func TestSendRecvRing(t *testing.T) {
	requireNCCL(t, 1)
	n := gpus(t)
	comms := newComms(t, n)
	ctx := context.Background()
	each(t, comms, func(c *nccl.Comm) error {
		x, err := input(c, ops.Float32, 4096)
		if err != nil {
			return err
		}
		y, err := zerosOn(c.Device(), ops.Float32, 4096)
		if err != nil {
			return err
		}
		var g nccl.Group
		g.Send(c, x, (c.Rank()+1)%n)
		g.Recv(c, y, (c.Rank()+n-1)%n)
		if err := g.Run(ctx); err != nil {
			return err
		}
		from := (c.Rank() + n - 1) % n
		return compare(fmt.Sprintf("rank %d Recv from %d", c.Rank(), from), ops.Float32, y, func(i int) float64 { return value(from, i) })
	})
}

// TestGroupOneGoroutine issues every rank's AllReduce from one goroutine
// in one Group, on a stream of each GPU.
func TestGroupOneGoroutine(t *testing.T) {
	requireNCCL(t, 1)
	n := gpus(t)
	comms := newComms(t, n)
	ctx := context.Background()
	xs := make([]*ops.Tensor, n)
	var g nccl.Group
	for i, c := range comms {
		s, err := cuda.NewStream(i)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ctx = cuda.WithStream(ctx, s)
		if xs[i], err = input(c, ops.BFloat16, 3000); err != nil {
			t.Fatal(err)
		}
		g.AllReduce(c, xs[i], nccl.Max)
	}
	if g.Len() != n {
		t.Fatalf("Len() = %d, want %d", g.Len(), n)
	}
	if err := g.Run(ctx); err != nil {
		t.Fatal(err)
	}
	for i, x := range xs {
		if err := compare(fmt.Sprintf("rank %d", i), ops.BFloat16, x, func(j int) float64 { return reduce(nccl.Max, devices(n), j) }); err != nil {
			t.Fatal(err)
		}
	}
}

// TestGraphCapture captures an AllReduce on each rank's stream into a CUDA
// graph and replays it: each replay sums the tensors again.
func TestGraphCapture(t *testing.T) {
	requireNCCL(t, 1)
	n := gpus(t)
	comms := newComms(t, n)
	each(t, comms, func(c *nccl.Comm) error {
		s, err := cuda.NewStream(c.Rank())
		if err != nil {
			return err
		}
		defer s.Close()
		ctx := cuda.WithStream(context.Background(), s)
		x, err := input(c, ops.Float32, 1024)
		if err != nil {
			return err
		}
		if x, err = x.To(ctx, ops.CPU); err != nil {
			return err
		}
		if x, err = x.To(ctx, c.Device()); err != nil { // x belongs to s
			return err
		}
		g, err := cuda.Capture(ctx, s, func(ctx context.Context) error { return c.AllReduce(ctx, x, nccl.Sum) })
		if err != nil {
			return err
		}
		defer g.Close()
		// Capturing ran nothing: x still holds the input.
		for replay := 1; replay <= 2; replay++ {
			if err := g.Replay(); err != nil {
				return err
			}
		}
		return compare(fmt.Sprintf("rank %d after 2 replays", c.Rank()), ops.Float32, x, func(i int) float64 {
			return float64(n) * reduce(nccl.Sum, devices(n), i)
		})
	})
}

// TestBadInput: wrong device, dtype mix, non-contiguous tensors, bad
// roots and shapes are errors naming the argument, and issue nothing.
func TestBadInput(t *testing.T) {
	requireNCCL(t, 1)
	comms := newComms(t, 1)
	c := comms[0]
	ctx := context.Background()
	gpu := func(dt ops.DType, shape ...int) *ops.Tensor {
		x, err := zerosOn(c.Device(), dt, shape...)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	cpu, _ := ops.Zeros(ops.Float32, 4)
	tr, err := gpu(ops.Float32, 4, 3).Transpose(0, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		err  error
		call func() error
	}{
		{"cpu tensor", ops.ErrDevice, func() error { return c.AllReduce(ctx, cpu, nccl.Sum) }},
		{"non-contiguous", ops.ErrShape, func() error { return c.AllReduce(ctx, tr, nccl.Sum) }},
		{"bad op", ops.ErrArg, func() error { return c.AllReduce(ctx, gpu(ops.Float32, 4), nccl.ReduceOp(9)) }},
		{"bad root", ops.ErrArg, func() error { return c.Broadcast(ctx, gpu(ops.Float32, 4), 1) }},
		{"bad peer", ops.ErrArg, func() error { return c.Send(ctx, gpu(ops.Float32, 4), -1) }},
		{"dtype mix", ops.ErrDType, func() error { return c.AllGather(ctx, gpu(ops.Float64, 4), gpu(ops.Float32, 4)) }},
		{"gather shape", ops.ErrShape, func() error { return c.AllGather(ctx, gpu(ops.Float32, 5), gpu(ops.Float32, 4)) }},
		{"nil tensor", ops.ErrNil, func() error { return c.AllReduce(ctx, nil, nccl.Sum) }},
		{"nil comm", ops.ErrNil, func() error { var nc *nccl.Comm; return nc.AllReduce(ctx, gpu(ops.Float32, 4), nccl.Sum) }},
	} {
		err := tc.call()
		if !errors.Is(err, tc.err) {
			t.Errorf("%s: got %v, want an error wrapping %v", tc.name, err, tc.err)
		} else {
			t.Logf("%s: %v", tc.name, err)
		}
	}
	if err := c.Err(); err != nil {
		t.Fatalf("the communicator is unusable after bad input: %v", err)
	}
	if _, err := nccl.NewComms(ctx, []int{0, 0}); !errors.Is(err, ops.ErrArg) {
		t.Errorf("NewComms(0, 0) = %v, want ErrArg", err)
	}
}

// TestInitDeadline: a rank whose peers never join is aborted when its
// context's deadline passes, and NewComm returns in time.
func TestInitDeadline(t *testing.T) {
	requireNCCL(t, 1)
	id, err := nccl.NewUniqueID()
	if err != nil {
		t.Fatal(err)
	}
	const deadline = 2 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	start := time.Now()
	_, err = nccl.NewComm(ctx, 0, id, 0, 2)
	took := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, nccl.ErrAborted) {
		t.Fatalf("NewComm with a missing peer = %v, want DeadlineExceeded and ErrAborted", err)
	}
	if took > deadline+3*time.Second {
		t.Fatalf("NewComm returned after %v, deadline %v", took, deadline)
	}
	t.Logf("returned after %v: %v", took, err)
}

// warm all-reduces once on both ranks (from one goroutine, in a group), so
// that NCCL's connections exist and a lone rank's next collective hangs in
// its kernel rather than in connection setup.
func warm(t *testing.T, comms []*nccl.Comm) {
	t.Helper()
	var g nccl.Group
	for _, c := range comms {
		x, err := input(c, ops.Float32, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		g.AllReduce(c, x, nccl.Sum)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := g.Run(ctx); err != nil {
		t.Fatal(err)
	}
	for _, c := range comms {
		if err := c.Synchronize(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAbortOnDeadline: rank 0 all-reduces, rank 1 never does; rank 0's
// Synchronize returns an error when its deadline passes, the
// communicator is aborted, and later calls say so.
func TestAbortOnDeadline(t *testing.T) {
	requireNCCL(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	comms, err := nccl.NewComms(ctx, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	defer comms[1].Abort()
	warm(t, comms)
	x, err := input(comms[0], ops.Float32, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	const deadline = 2 * time.Second
	dctx, dcancel := context.WithTimeout(context.Background(), deadline)
	defer dcancel()
	start := time.Now()
	// The error comes from Synchronize (the kernel waits for rank 1), or from
	// AllReduce itself if NCCL reports the call in progress until the deadline.
	err = comms[0].AllReduce(dctx, x, nccl.Sum)
	if err == nil {
		err = comms[0].Synchronize(dctx)
	}
	took := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, nccl.ErrAborted) {
		t.Fatalf("Synchronize with a silent peer = %v, want DeadlineExceeded and ErrAborted", err)
	}
	if took > deadline+3*time.Second {
		t.Fatalf("Synchronize returned after %v, deadline %v", took, deadline)
	}
	t.Logf("returned after %v: %v", took, err)
	if err := comms[0].AllReduce(context.Background(), x, nccl.Sum); !errors.Is(err, nccl.ErrAborted) {
		t.Fatalf("AllReduce after the abort = %v, want ErrAborted", err)
	}
	// The aborted collective's kernel has stopped: the device can be synchronized.
	sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer scancel()
	if err := ops.Synchronize(sctx, ops.CUDA(0)); err != nil {
		t.Fatalf("cuda:0 still busy after the abort: %v", err)
	}
	if err := comms[0].Close(context.Background()); err != nil {
		t.Fatalf("Close after abort = %v, want nil", err)
	}
}

// TestWatchAbortsWithoutSynchronize: a collective whose context's deadline
// passes before its peer joins is aborted even if nobody waits on the
// communicator.
func TestWatchAbortsWithoutSynchronize(t *testing.T) {
	requireNCCL(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	comms, err := nccl.NewComms(ctx, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	defer comms[1].Abort()
	warm(t, comms)
	x, err := input(comms[0], ops.Float32, 1024)
	if err != nil {
		t.Fatal(err)
	}
	dctx, dcancel := context.WithTimeout(context.Background(), time.Second)
	defer dcancel()
	if err := comms[0].AllReduce(dctx, x, nccl.Sum); err != nil {
		t.Logf("AllReduce returned the error itself (NCCL kept it in progress): %v", err)
	}
	for start := time.Now(); comms[0].Err() == nil; time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			t.Fatal("the communicator was not aborted 10 s after its call's deadline")
		}
	}
	t.Logf("Err: %v", comms[0].Err())
	if !errors.Is(comms[0].Err(), context.DeadlineExceeded) {
		t.Fatalf("Err() = %v, want DeadlineExceeded", comms[0].Err())
	}
}

// TestNoNCCL: Info either finds NCCL or says why not with ErrNoNCCL (this
// runs everywhere, also without a GPU).
func TestNoNCCL(t *testing.T) {
	v, path, err := nccl.Info()
	if err != nil {
		if !errors.Is(err, nccl.ErrNoNCCL) {
			t.Fatalf("Info() = %v, want an error wrapping ErrNoNCCL", err)
		}
		t.Logf("no NCCL: %v", err)
		return
	}
	t.Logf("NCCL %d from %s", v, path)
}

// TestMismatch: ranks of an in-process communicator that all-reduce
// different counts get an error (ErrShape on the rank that sees the
// difference, ErrAborted on the other) instead of hanging.
func TestMismatch(t *testing.T) {
	requireNCCL(t, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	comms, err := nccl.NewComms(ctx, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	dctx, dcancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer dcancel()
	start := time.Now()
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for r, c := range comms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x, err := input(c, ops.Float32, 1000-r)
			if err != nil {
				errs[r] = err
				return
			}
			if r == 1 {
				time.Sleep(100 * time.Millisecond)
			}
			if errs[r] = c.AllReduce(dctx, x, nccl.Sum); errs[r] == nil {
				errs[r] = c.Synchronize(dctx)
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	t.Logf("after %v:\nrank 0: %v\nrank 1: %v", took, errs[0], errs[1])
	if errs[0] == nil || errs[1] == nil || !(errors.Is(errs[0], ops.ErrShape) || errors.Is(errs[1], ops.ErrShape)) {
		t.Fatalf("want an ErrShape error on one rank and an error on both")
	}
	if took > 10*time.Second {
		t.Fatalf("the ranks returned after %v: the mismatch should abort them at once", took)
	}
}

// TestRepeatedCalls: collectives issued back to back (no wait between
// them, each watched since its context has a deadline) give the right
// results, and Close waits for them.
func TestRepeatedCalls(t *testing.T) {
	requireNCCL(t, 1)
	n := gpus(t)
	comms, err := nccl.NewComms(context.Background(), devices(n))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, c := range comms {
			if err := c.Close(context.Background()); err != nil {
				t.Error(err)
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, dt := range dtypes {
		each(t, comms, func(c *nccl.Comm) error {
			x, err := input(c, dt, 5000)
			if err != nil {
				return err
			}
			for i := 0; i < 3; i++ {
				if err := c.AllReduce(ctx, x, nccl.Max); err != nil {
					return err
				}
			}
			if err := c.Synchronize(ctx); err != nil {
				return err
			}
			return compare(fmt.Sprintf("rank %d", c.Rank()), dt, x, func(i int) float64 { return reduce(nccl.Max, devices(n), i) })
		})
	}
}
