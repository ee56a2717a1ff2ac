package nccl_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/nccl"
)

// TestMultiProcess runs one process per GPU (this test binary again, as
// TestRankProcess), which meet through Rendezvous on loopback TCP, build a
// communicator with NewComm and all-reduce.
func TestMultiProcess(t *testing.T) {
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
		cmd.Env = append(os.Environ(), "NCCL_TEST_RANK="+strconv.Itoa(r), "NCCL_TEST_SIZE="+strconv.Itoa(n), "NCCL_TEST_ADDR="+addr)
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
		if err != nil {
			t.Errorf("rank %d: %v", r, err)
		} else if !strings.Contains(outs[r].String(), "rank ok") {
			t.Errorf("rank %d did not run (no 'rank ok')", r)
		}
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
