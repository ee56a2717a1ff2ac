package jitload_test

import (
	"context"
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/cumodule"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit/jitload"
)

// Compile a templated kernel for GPU 0 on first use (later runs read jit's disk cache), and
// launch it on ops tensors. Needs a GPU, so it is not run by go test.
func ExampleLoad() {
	ctx := context.Background()
	src := `template <typename T>
__global__ void scale(T* y, const T* x, T a, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}
`
	m, err := jitload.Load(0, jit.Program{Name: "scale.cu", Source: src, NameExpressions: []string{"scale<float>"}}, jitload.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Close()
	k, err := m.Kernel("scale<float>")
	if err != nil {
		fmt.Println(err)
		return
	}
	const n = 1000
	x, _ := ops.Full(1.5, ops.Float32, n)
	x, _ = x.To(ctx, ops.CUDA(0))
	y, _ := ops.Zeros(ops.Float32, n)
	y, _ = y.To(ctx, ops.CUDA(0))
	blocks, _ := jitload.Blocks(n, 256, 1024)
	if err := k.Launch(ctx, cumodule.Dim3{X: blocks}, cumodule.Dim3{X: 256}, 0, y, x, float32(2), int64(n)); err != nil {
		fmt.Println(err)
		return
	}
	v, _ := y.Float32s()
	fmt.Println(m.Image().Format, m.Image().Arch, v[0], v[n-1])
}
