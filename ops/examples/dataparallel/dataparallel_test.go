package dataparallel_test

import (
	"context"
	"errors"
	"math"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/nccl"
	"github.com/rules-cuda-go/rules_cuda_go/ops/examples/dataparallel"
)

var cfg = dataparallel.Config{N: 4096, D: 64, H: 128, Steps: 50, LR: 0.1, Seed: 7}

// TestLearnsOnCPU runs the single-device training on the CPU (everywhere,
// also without a GPU): the loss must fall.
func TestLearnsOnCPU(t *testing.T) {
	small := cfg
	small.N, small.Steps = 512, 30
	x, tg, err := dataparallel.Data(small)
	if err != nil {
		t.Fatal(err)
	}
	losses, err := dataparallel.Train(context.Background(), small, nil, ops.CPU, x, tg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("loss %v -> %v", losses[0], losses[len(losses)-1])
	if !(losses[len(losses)-1] < losses[0]/2) {
		t.Fatalf("the loss did not halve in %d steps: %v", small.Steps, losses)
	}
}

// TestMatchesSingleGPU trains on every GPU data-parallel (one goroutine per
// rank) and on cuda:0 alone, and compares the loss curves.
func TestMatchesSingleGPU(t *testing.T) {
	if ok, err := cuda.Available(); !ok {
		t.Skipf("skipping: no usable CUDA device (%v)", err)
	}
	if _, _, err := nccl.Info(); err != nil {
		if os.Getenv("RULES_CUDA_GO_REQUIRE_NCCL") == "1" {
			t.Fatal(err)
		}
		t.Skipf("skipping: %v", err)
	}
	n, err := cuda.DeviceCount()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	x, tg, err := dataparallel.Data(cfg)
	if err != nil {
		t.Fatal(err)
	}
	single, err := dataparallel.Train(ctx, cfg, nil, ops.CUDA(0), x, tg)
	if err != nil {
		t.Fatal(err)
	}
	ictx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	devs := make([]int, n)
	for i := range devs {
		devs[i] = i
	}
	comms, err := nccl.NewComms(ictx, devs)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, c := range comms {
			c.Close(ictx)
		}
	}()
	curves := make([][]float64, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for r, c := range comms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			curves[r], errs[r] = dataparallel.Train(ctx, cfg, c, c.Device(), x, tg)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	if single[len(single)-1] > single[0]/2 {
		t.Fatalf("the single-GPU run did not learn: loss %v -> %v", single[0], single[len(single)-1])
	}
	worst := 0.0
	for r, curve := range curves {
		for s, v := range curve {
			rel := math.Abs(v-single[s]) / single[s]
			worst = math.Max(worst, rel)
			if rel > 1e-9 {
				t.Fatalf("rank %d of %d, step %d: loss %v, single GPU %v (relative difference %.3g)", r, n, s, v, single[s], rel)
			}
		}
	}
	for s := 0; s < len(single); s += 10 {
		t.Logf("step %2d: single GPU %.12g, %d GPUs %.12g", s, single[s], n, curves[0][s])
	}
	t.Logf("%d GPUs: largest relative difference from the single-GPU loss curve %.3g over %d steps", n, worst, len(single))
}
