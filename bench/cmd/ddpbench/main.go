// Command ddpbench trains an MLP data-parallel with ops, ops/cuda/nccl's
// Reducer (gradient buckets all-reduced during backward) and plain SGD,
// one process per GPU joined by nccl.Rendezvous over TCP, in the form
// torch_ddp.py trains the same model with PyTorch's
// DistributedDataParallel: the same data and initial weights (integer
// patterns both sides compute exactly), the same global batch split
// across the ranks, the same bucket size. Rank 0 prints one JSON line: the
// mean step time over the steps after the warm-up, its loss at every step
// and the norm of what the steps changed in each layer's float32 master.
//
// The model: bfloat16 parameters, activations, gradients and buckets, with
// float32 master weights: L layers h = act(h·W_l), act(h) = h + h²/2
// (ops.Polynomial), without act after the last; the loss is the sum of
// squared errors against fixed targets over the rank's rows, divided by
// the rows, in float32. The update is M ← M − lr·float32(g) on the float32
// master M of each weight, then W ← bfloat16(M) (plain bfloat16 updates
// round to nothing at these learning rates).
//
// With -kill-step k, rank 1 kills itself (SIGKILL) at step k after its
// backward, and every step has a deadline (-step-timeout) and ends with
// Comm.Synchronize: rank 0 must then return an error wrapping
// nccl.ErrAborted within the deadline; it prints when it did.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"syscall"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/bench/internal/ranks"
	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/nccl"
)

var (
	gpus        = flag.Int("gpus", 0, "ranks (one process and GPU each); 0: every GPU")
	dim         = flag.Int("d", 4096, "width of every layer")
	layers      = flag.Int("layers", 8, "layers (each a d×d weight)")
	batch       = flag.Int("batch", 16384, "global batch (rows), split across the ranks")
	steps       = flag.Int("steps", 50, "training steps")
	warmup      = flag.Int("warmup", 10, "steps not timed")
	lr          = flag.Float64("lr", 0.001, "SGD learning rate")
	bucketBytes = flag.Int("bucket", nccl.DefaultBucketBytes, "Reducer bucket size, bytes")
	label       = flag.String("label", "go", "the impl field of the JSON line")
	killStep    = flag.Int("kill-step", -1, "rank 1 kills itself at this step (and every step gets -step-timeout)")
	stepTimeout = flag.Duration("step-timeout", 5*time.Second, "each step's deadline with -kill-step")
)

// result is rank 0's JSON line.
type result struct {
	Impl    string    `json:"impl"`
	GPUs    int       `json:"gpus"`
	StepMs  float64   `json:"step_ms"`
	Params  int       `json:"params"`
	Buckets int       `json:"buckets"`
	Losses  []float64 `json:"losses"`
	// Updates is ‖M_l − M_l(0)‖ of each layer's float32 master after the
	// steps: what the training changed, where the loss moves little.
	Updates []float64 `json:"update_norms"`
}

func main() {
	flag.Parse()
	var err error
	if r, ok, cerr := ranks.Child("DDPBENCH"); cerr != nil {
		err = cerr
	} else if ok {
		err = rankMain(r)
	} else {
		err = spawn()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ddpbench:", err)
		os.Exit(1)
	}
}

// spawn runs this program once per rank.
func spawn() error {
	n := *gpus
	if n == 0 {
		var err error
		if n, err = cuda.DeviceCount(); err != nil {
			return err
		}
	}
	if n < 1 {
		return errors.New("no GPU")
	}
	// Rank 1 kills itself on purpose with -kill-step: its exit is no failure.
	return ranks.Spawn(n, "DDPBENCH", func(rank int) bool { return rank != 1 || *killStep < 0 })
}

// pattern is the value both sides compute for index k: one of 2001
// evenly spaced values in [-1, 1], exact in float32.
func pattern(k int) float32 { return float32(k%2001-1000) / 1000 }

// matrix makes a rows×cols bfloat16 tensor on dev whose element (i, j) is
// pattern(i*a + j*b + c) * scale (in float32, then rounded).
func matrix(ctx context.Context, dev ops.Device, rows, cols, a, b, c int, scale float32) (*ops.Tensor, error) {
	v := make([]float32, rows*cols)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			v[i*cols+j] = pattern(i*a+j*b+c) * scale
		}
	}
	t, err := ops.FromFloat32As(ops.BFloat16, v, rows, cols)
	if err != nil {
		return nil, err
	}
	defer t.Free()
	return t.To(ctx, dev)
}

func rankMain(r ranks.Rank) error {
	rank, size := r.Rank, r.Size
	ctx := context.Background()
	ictx, cancel := context.WithTimeout(ctx, 120*time.Second)
	defer cancel()
	id, err := nccl.Rendezvous(ictx, r.Addr, rank, size)
	if err != nil {
		return err
	}
	comm, err := nccl.NewComm(ictx, rank, id, rank, size)
	if err != nil {
		return err
	}
	dev := comm.Device()
	d, rows := *dim, *batch/size
	x, err := matrix(ctx, dev, rows, d, 7919, 104729, rank*rows*7919, 1)
	if err != nil {
		return err
	}
	target, err := matrix(ctx, dev, rows, d, 104729, 7919, rank*rows*104729, 0.5)
	if err != nil {
		return err
	}
	ws := make([]*ops.Tensor, *layers)
	masters := make([]*ops.Tensor, *layers)
	for l := range ws {
		if ws[l], err = matrix(ctx, dev, d, d, 31, 17, l*1009, float32(1.5/math.Sqrt(float64(d)))); err != nil {
			return err
		}
		if masters[l], err = ws[l].AsType(ctx, ops.Float32); err != nil {
			return err
		}
		if err := ws[l].SetRequiresGrad(true); err != nil {
			return err
		}
	}
	start0 := make([]*ops.Tensor, *layers) // the masters' initial values
	for l, m := range masters {
		if start0[l], err = ops.Scale(ctx, m, 1); err != nil {
			return err
		}
	}
	red, err := nccl.NewReducer(ctx, comm, ws, nccl.ReducerOptions{BucketBytes: *bucketBytes})
	if err != nil {
		return err
	}
	defer red.Close()
	// The run's context: its deadline is far; with -kill-step each step
	// gets its own.
	rctx, rcancel := context.WithTimeout(ctx, 30*time.Minute)
	defer rcancel()
	losses := make([]*ops.Tensor, 0, *steps)
	var start time.Time
	for step := 0; step < *steps; step++ {
		if step == *warmup {
			if err := comm.Synchronize(rctx); err != nil {
				return err
			}
			start = time.Now()
		}
		sctx, scancel := rctx, context.CancelFunc(func() {})
		if *killStep >= 0 {
			sctx, scancel = context.WithTimeout(ctx, *stepTimeout)
		}
		t0 := time.Now()
		loss, err := trainStep(sctx, red, ws, masters, x, target, rank, step)
		if err == nil && *killStep >= 0 {
			err = comm.Synchronize(sctx) // before the step's context ends
		}
		scancel()
		if err != nil {
			if *killStep >= 0 && step >= *killStep {
				fmt.Fprintf(os.Stderr, "rank %d: step %d returned an error %v after it began (deadline %v; ErrAborted: %v): %v\n",
					rank, step, time.Since(t0), *stepTimeout, errors.Is(err, nccl.ErrAborted), err)
				b, _ := json.Marshal(map[string]any{"impl": *label, "event": "peer_killed", "step": step,
					"error_after_ms": float64(time.Since(t0).Microseconds()) / 1000, "deadline_ms": stepTimeout.Milliseconds(),
					"aborted": errors.Is(err, nccl.ErrAborted)})
				fmt.Println(string(b))
				return nil
			}
			return fmt.Errorf("rank %d step %d: %w", rank, step, err)
		}
		losses = append(losses, loss)
	}
	if err := comm.Synchronize(rctx); err != nil {
		return err
	}
	timed := *steps - *warmup
	per := time.Since(start).Seconds() / float64(timed)
	if *killStep >= 0 {
		return fmt.Errorf("rank %d: no step failed after rank 1 was to kill itself at step %d", rank, *killStep)
	}
	if rank == 0 {
		res := result{Impl: *label, GPUs: size, StepMs: per * 1e3, Params: *layers * d * d, Buckets: red.Buckets()}
		for i, l := range losses {
			v, err := l.Item()
			if err != nil {
				return err
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				fmt.Fprintf(os.Stderr, "%s: the loss is %v at step %d: training diverged (losses kept up to there)\n", *label, v, i)
				break
			}
			res.Losses = append(res.Losses, v)
		}
		for l, m := range masters {
			dm, err := ops.Axpby(ctx, 1, m, -1, start0[l])
			if err != nil {
				return err
			}
			n, err := ops.Norm(ctx, dm)
			if err != nil {
				return err
			}
			v, err := n.Item()
			if err != nil {
				return err
			}
			res.Updates = append(res.Updates, v)
		}
		b, _ := json.Marshal(res)
		fmt.Println(string(b))
		if n := len(res.Losses); n > 0 {
			fmt.Fprintf(os.Stderr, "%s: %d GPU(s), %.2f ms/step, loss %.5g -> %.5g\n", *label, size, per*1e3, res.Losses[0], res.Losses[n-1])
		}
	}
	return comm.Close(rctx)
}

// trainStep runs forward, backward (the Reducer all-reduces the gradients
// as backward produces them), Wait and the SGD update, which replaces ws
// and masters with new tensors; it returns the loss (float32, 0-d) without
// waiting.
func trainStep(ctx context.Context, red *nccl.Reducer, ws, masters []*ops.Tensor, x, target *ops.Tensor, rank, step int) (*ops.Tensor, error) {
	for _, w := range ws {
		if g := w.Grad(); g != nil {
			g.Free()
			w.ZeroGrad()
		}
	}
	// The step's intermediate tensors, freed (stream-ordered) at its end:
	// the collector does not see device memory.
	var tmp []*ops.Tensor
	defer func() {
		for _, t := range tmp {
			t.Free()
		}
	}()
	keep := func(t *ops.Tensor, err error) (*ops.Tensor, error) {
		if err == nil {
			tmp = append(tmp, t)
		}
		return t, err
	}
	h := x
	var err error
	for l, w := range ws {
		if h, err = keep(ops.MatMul(ctx, h, w)); err != nil {
			return nil, err
		}
		if l < len(ws)-1 {
			if h, err = keep(ops.Polynomial(ctx, h, 0, 0.5, 1, 0)); err != nil {
				return nil, err
			}
		}
	}
	diff, err := keep(ops.Axpby(ctx, 1, h, -1, target))
	if err != nil {
		return nil, err
	}
	if diff, err = keep(diff.AsType(ctx, ops.Float32)); err != nil {
		return nil, err
	}
	n, err := keep(ops.Norm(ctx, diff))
	if err != nil {
		return nil, err
	}
	loss, err := ops.Polynomial(ctx, n, 0, 1/float64(x.Shape()[0]), 0, 0) // ||diff||² / rows
	if err != nil {
		return nil, err
	}
	if err := loss.Backward(ctx); err != nil {
		return nil, err
	}
	if rank == 1 && step == *killStep {
		fmt.Fprintln(os.Stderr, "rank 1 kills itself")
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
	}
	if err := red.Wait(ctx); err != nil {
		return nil, err
	}
	for l, w := range ws {
		g32, err := w.Grad().AsType(ctx, ops.Float32)
		if err != nil {
			return nil, err
		}
		m, err := ops.Axpby(ctx, 1, masters[l], -*lr, g32)
		if err != nil {
			return nil, err
		}
		nw, err := m.AsType(ctx, ops.BFloat16)
		if err != nil {
			return nil, err
		}
		if err := nw.SetRequiresGrad(true); err != nil {
			return nil, err
		}
		g32.Free()
		masters[l].Free()
		masters[l] = m
		w.Grad().Free()
		w.ZeroGrad()
		w.Free()
		ws[l] = nw
	}
	if err := red.SetParams(ws); err != nil {
		return nil, err
	}
	return loss.Detach(), nil
}
