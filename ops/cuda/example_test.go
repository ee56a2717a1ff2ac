package cuda_test

import (
	"context"
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

// Importing the package registers the CUDA backend and kernels; tensors
// moved to ops.CUDA(n) run their ops on that GPU. Without a usable GPU the
// program still runs, on the CPU.
func Example() {
	ctx := context.Background()
	dev := ops.CPU
	if ok, _ := cuda.Available(); ok {
		dev = ops.CUDA(0)
	}
	x, _ := ops.FromFloat32([]float32{1, 2, 3, 4}, 2, 2)
	xd, err := x.To(ctx, dev)
	if err != nil {
		panic(err)
	}
	y, _ := ops.Polynomial(ctx, xd, 1, 0, 0, 1) // x³ + 1, one fused kernel
	s, _ := ops.RowSoftmax(ctx, y)
	n, _ := ops.Norm(ctx, xd)
	v, _ := y.Float32s() // copies back to the host, waiting for the kernels
	p, _ := s.Float64s()
	l, _ := n.Item()
	fmt.Println(v, y.Device() == dev)
	fmt.Printf("%.4f %.4f\n", p[0], p[1])
	fmt.Printf("%.4f\n", l)
	// Output:
	// [2 9 28 65] true
	// 0.0009 0.9991
	// 5.4772
}

// Without a GPU, creating a CUDA tensor returns an error wrapping
// ErrNoDevice that says why.
func ExampleAvailable() {
	ok, err := cuda.Available()
	if !ok {
		fmt.Println("no GPU:", err)
		return
	}
	n, _ := cuda.DeviceCount()
	info, _ := cuda.Info(0)
	fmt.Println(n, "device(s); cuda:0 is", info.Name)
}
