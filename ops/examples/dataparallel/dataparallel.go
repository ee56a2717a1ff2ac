// Package dataparallel trains a small network data-parallel on several
// GPUs with ops' autograd and ops/cuda/nccl: every rank holds a replica of
// the weights and a shard of the batch, runs forward and backward on its
// shard, and all-reduces the gradients (one NCCL group for all of them)
// before the same update everywhere, like PyTorch's DistributedDataParallel.
// The loss of each step is all-reduced too, so every rank sees the loss of
// the whole batch, which is the single-GPU run's loss up to rounding.
//
// The model is a two-layer network y = act(x·W1)·W2 with act(h) = h +
// h²/2 (ops.Polynomial), trained on a regression task with the mean
// squared error ||y - t||²/N (ops.Norm) by plain gradient descent.
package dataparallel

import (
	"context"
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/nccl"
)

// Config is the problem: N samples of D features, H hidden units, Steps
// steps of gradient descent with learning rate LR, in float64.
type Config struct {
	N, D, H int
	Steps   int
	LR      float64
	Seed    uint64
}

// Data returns the inputs x [N, D] and targets t [N, 1] on the host: t is
// a fixed teacher network of x.
func Data(cfg Config) (x, t *ops.Tensor, err error) {
	ctx := context.Background()
	if x, err = ops.Rand(cfg.Seed, ops.Float64, cfg.N, cfg.D); err != nil {
		return nil, nil, err
	}
	teacher, err := ops.Rand(cfg.Seed+1, ops.Float64, cfg.D, 1)
	if err != nil {
		return nil, nil, err
	}
	if teacher, err = ops.Scale(ctx, teacher, 2/float64(cfg.D)); err != nil {
		return nil, nil, err
	}
	if t, err = ops.MatMul(ctx, x, teacher); err != nil {
		return nil, nil, err
	}
	if t, err = ops.Polynomial(ctx, t, 0, 0.3, 1, 0); err != nil {
		return nil, nil, err
	}
	return x, t, nil
}

// weights returns the initial W1 [D, H] and W2 [H, 1], the same on every
// rank (the seed fixes them), on dev.
func weights(ctx context.Context, cfg Config, dev ops.Device) (w1, w2 *ops.Tensor, err error) {
	init := func(seed uint64, rows, cols int) (*ops.Tensor, error) {
		w, err := ops.Rand(seed, ops.Float64, rows, cols)
		if err != nil {
			return nil, err
		}
		if w, err = ops.AddScalar(ctx, w, -0.5); err != nil {
			return nil, err
		}
		if w, err = ops.Scale(ctx, w, 1/float64(rows)); err != nil {
			return nil, err
		}
		return w.To(ctx, dev)
	}
	if w1, err = init(cfg.Seed+2, cfg.D, cfg.H); err != nil {
		return nil, nil, err
	}
	w2, err = init(cfg.Seed+3, cfg.H, 1)
	return w1, w2, err
}

// Train runs cfg.Steps steps on the rows of x and t that belong to the
// rank (the shards of the batch are contiguous blocks of rows, in rank
// order) on the rank's GPU, all-reducing the gradients and the loss with
// comm, and returns the loss of the whole batch before each step. With a
// nil comm it trains on all of x and t on dev alone: the single-GPU run.
func Train(ctx context.Context, cfg Config, comm *nccl.Comm, dev ops.Device, x, t *ops.Tensor) ([]float64, error) {
	rank, size := 0, 1
	if comm != nil {
		rank, size, dev = comm.Rank(), comm.Size(), comm.Device()
	}
	lo, hi := rank*cfg.N/size, (rank+1)*cfg.N/size
	xs, err := x.Narrow(0, lo, hi-lo)
	if err != nil {
		return nil, err
	}
	ts, err := t.Narrow(0, lo, hi-lo)
	if err != nil {
		return nil, err
	}
	if xs, err = xs.To(ctx, dev); err != nil {
		return nil, err
	}
	if ts, err = ts.To(ctx, dev); err != nil {
		return nil, err
	}
	w1, w2, err := weights(ctx, cfg, dev)
	if err != nil {
		return nil, err
	}
	losses := make([]float64, 0, cfg.Steps)
	for step := 0; step < cfg.Steps; step++ {
		if err := w1.SetRequiresGrad(true); err != nil {
			return nil, err
		}
		if err := w2.SetRequiresGrad(true); err != nil {
			return nil, err
		}
		loss, err := shardLoss(ctx, cfg, xs, ts, w1, w2)
		if err != nil {
			return nil, err
		}
		if err := loss.Backward(ctx); err != nil {
			return nil, fmt.Errorf("step %d: %w", step, err)
		}
		g1, g2 := w1.Grad(), w2.Grad()
		total := loss.Detach()
		if comm != nil {
			// The batch's loss is the sum of the shards' (each divided by N, not by its
			// shard's size), and so is its gradient: one group all-reduces all three.
			var g nccl.Group
			g.AllReduce(comm, g1, nccl.Sum)
			g.AllReduce(comm, g2, nccl.Sum)
			g.AllReduce(comm, total, nccl.Sum)
			if err := g.Run(ctx); err != nil {
				return nil, fmt.Errorf("step %d: %w", step, err)
			}
		}
		v, err := total.Item()
		if err != nil {
			return nil, err
		}
		losses = append(losses, v)
		if w1, err = ops.Axpby(ctx, 1, w1.Detach(), -cfg.LR, g1); err != nil {
			return nil, err
		}
		if w2, err = ops.Axpby(ctx, 1, w2.Detach(), -cfg.LR, g2); err != nil {
			return nil, err
		}
	}
	return losses, nil
}

// shardLoss returns ||act(x·W1)·W2 - t||² / N for the shard x, t.
func shardLoss(ctx context.Context, cfg Config, x, t, w1, w2 *ops.Tensor) (*ops.Tensor, error) {
	h, err := ops.MatMul(ctx, x, w1)
	if err != nil {
		return nil, err
	}
	if h, err = ops.Polynomial(ctx, h, 0, 0.5, 1, 0); err != nil {
		return nil, err
	}
	y, err := ops.MatMul(ctx, h, w2)
	if err != nil {
		return nil, err
	}
	d, err := ops.Axpby(ctx, 1, y, -1, t)
	if err != nil {
		return nil, err
	}
	norm, err := ops.Norm(ctx, d)
	if err != nil {
		return nil, err
	}
	return ops.Polynomial(ctx, norm, 0, 1/float64(cfg.N), 0, 0)
}
