package nccl_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/ops"

	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/nccl"
)

// TestMultiProcess runs one process per GPU (this test binary again, as
// TestRankProcess), which meet through Rendezvous on loopback TCP, build a
// communicator with NewComm and all-reduce.
func TestMultiProcess(t *testing.T) {
	runRanks(t, "", func(r int, out string, err error) {
		if err != nil {
			t.Errorf("rank %d: %v", r, err)
		} else if !strings.Contains(out, "rank ok") {
			t.Errorf("rank %d did not run (no 'rank ok')", r)
		}
	})
}

// TestMultiProcessKill: two processes joined by the TCP bootstrap
// all-reduce step after step, each step with a deadline; rank 1 kills
// itself (SIGKILL) in the middle of a step, and rank 0's step returns an
// error wrapping ErrAborted within its deadline, nothing left hanging.
func TestMultiProcessKill(t *testing.T) {
	runRanks(t, "kill", func(r int, out string, err error) {
		switch r {
		case 1:
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
				t.Errorf("rank 1: %v, want killed by SIGKILL", err)
			}
		default:
			if err != nil {
				t.Errorf("rank %d: %v", r, err)
			} else if !strings.Contains(out, "rank ok") {
				t.Errorf("rank %d did not finish (no 'rank ok')", r)
			}
		}
	})
}

// runRanks runs TestRankProcess once per GPU, in mode, and calls check with
// each rank's output and exit error.
func runRanks(t *testing.T, mode string, check func(rank int, out string, err error)) {
	requireNCCL(t, 2)
	n := gpus(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmds := make([]*exec.Cmd, n)
	outs := make([]*strings.Builder, n)
	for r := range cmds {
		cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestRankProcess$", "-test.v")
		cmd.Env = append(os.Environ(), "NCCL_TEST_RANK="+strconv.Itoa(r), "NCCL_TEST_SIZE="+strconv.Itoa(n), "NCCL_TEST_ADDR="+addr, "NCCL_TEST_MODE="+mode)
		outs[r] = &strings.Builder{}
		cmd.Stdout, cmd.Stderr = outs[r], outs[r]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[r] = cmd
	}
	for r, cmd := range cmds {
		err := cmd.Wait()
		t.Logf("rank %d:\n%s", r, outs[r])
		check(r, outs[r].String(), err)
	}
}

// TestRankProcess is one rank of TestMultiProcess (it skips when run on its
// own).
func TestRankProcess(t *testing.T) {
	rank, err1 := strconv.Atoi(os.Getenv("NCCL_TEST_RANK"))
	size, err2 := strconv.Atoi(os.Getenv("NCCL_TEST_SIZE"))
	addr := os.Getenv("NCCL_TEST_ADDR")
	if err1 != nil || err2 != nil || addr == "" {
		t.Skip("one rank of TestMultiProcess; runs only as its child")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	id, err := nccl.Rendezvous(ctx, addr, rank, size)
	if err != nil {
		t.Fatal(err)
	}
	c, err := nccl.NewComm(ctx, rank, id, rank, size)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if os.Getenv("NCCL_TEST_MODE") == "kill" {
		killedPeer(t, c)
		return
	}
	for _, dt := range dtypes {
		x, err := input(c, dt, 1<<16)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.AllReduce(ctx, x, nccl.Sum); err != nil {
			t.Fatal(err)
		}
		if err := c.Synchronize(ctx); err != nil {
			t.Fatal(err)
		}
		if err := compare(fmt.Sprintf("rank %d", rank), dt, x, func(i int) float64 { return reduce(nccl.Sum, devices(size), i) }); err != nil {
			t.Fatal(err)
		}
	}
	fmt.Println("rank ok")
}

// killedPeer is TestMultiProcessKill's rank: steps of 16 all-reduces of
// 4 MiB, each step with a 2 s deadline; rank 1 kills itself in step 5,
// after queueing half of it; rank 0 steps until a step fails, which must
// be within the deadline.
func killedPeer(t *testing.T, c *nccl.Comm) {
	x, err := input(c, ops.Float32, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	const deadline = 2 * time.Second
	for step := 0; step < 1000; step++ {
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		for i := 0; i < 16 && err == nil; i++ {
			if c.Rank() == 1 && step == 5 && i == 8 {
				fmt.Println("rank 1 kills itself")
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
			err = c.AllReduce(ctx, x, nccl.Sum)
		}
		if err == nil {
			err = c.Synchronize(ctx)
		}
		cancel()
		took := time.Since(start)
		if err != nil {
			fmt.Printf("rank %d: step %d failed after %v (deadline %v): %v\n", c.Rank(), step, took, deadline, err)
			sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
			serr := ops.Synchronize(sctx, c.Device())
			scancel()
			fmt.Printf("rank %d: %v idle %v after the step began (%v)\n", c.Rank(), c.Device(), time.Since(start), serr)
			if !errors.Is(err, nccl.ErrAborted) {
				t.Fatalf("step %d: %v, want ErrAborted", step, err)
			}
			if step < 5 || took > deadline+time.Second {
				t.Fatalf("step %d failed after %v, want step >= 5 within %v", step, took, deadline)
			}
			fmt.Println("rank ok")
			return
		}
	}
	t.Fatal("no step failed after the peer was killed")
}
