package cuda_test

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// Two goroutines serve two requests on one GPU, each on its own stream, so
// their kernels may overlap; each waits for its own work with a deadline.
// Without a GPU the same code runs on the CPU (the contexts carry no
// stream then).
func ExampleWithStream() {
	var wg sync.WaitGroup
	out := make([]float64, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			dev := ops.CPU
			if ok, _ := cuda.Available(); ok {
				s, err := cuda.NewStream(0)
				if err != nil {
					panic(err)
				}
				defer s.Close()
				ctx, dev = cuda.WithStream(ctx, s), ops.CUDA(0)
			}
			x, _ := ops.Full(float64(i), ops.Float32, 4096)
			xd, _ := x.To(context.Background(), dev)
			y, _ := ops.AddScalar(ctx, xd, 1)
			z, _ := ops.Polynomial(ctx, y, 0, 1, 0, 0) // y²
			if dev != ops.CPU {
				if err := cuda.StreamFrom(ctx, dev.Index).Synchronize(ctx); err != nil {
					panic(err) // ctx.Err() if the deadline had passed
				}
			}
			v, _ := z.Float64s()
			out[i] = v[0]
		}()
	}
	wg.Wait()
	fmt.Println(out)
	// Output: [1 4]
}

// A chain of ops captured once and replayed: one launch per replay.
func ExampleCapture() {
	if ok, _ := cuda.Available(); !ok {
		fmt.Println("x+3 = [4 5]") // what the GPU prints
		return
	}
	s, _ := cuda.NewStream(0)
	defer s.Close()
	x0, _ := ops.FromFloat32([]float32{1, 2}, 2)
	x, _ := x0.To(context.Background(), ops.CUDA(0))
	var y *ops.Tensor
	g, err := cuda.Capture(context.Background(), s, func(ctx context.Context) error {
		y = x
		for range 3 {
			var err error
			if y, err = ops.AddScalar(ctx, y, 1); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		panic(err)
	}
	defer g.Close()
	if err := g.Replay(); err != nil {
		panic(err)
	}
	v, _ := y.Float32s()
	fmt.Println("x+3 =", v)
	// Output: x+3 = [4 5]
}
