package cuda_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/backward"
)

// Benchmarks of the CUDA kernels; each iteration queues one op and the
// timer stops after a Synchronize, so ns/op is device time plus launch
// overhead. MB/s counts the bytes read and written once each (the copy
// is the device-to-device bandwidth to compare with). Run on a GPU with
//
//	ops/cuda/cuda_test -test.run=NONE -test.bench=. -test.benchtime=20x

func benchTensor(b *testing.B, dtype ops.DType, shape ...int) *ops.Tensor {
	ctx := context.Background()
	b.Helper()
	requireGPU(b)
	x := must(b)(must(b)(ops.Rand(1, dtype, shape...)).To(ctx, dev))
	b.Cleanup(func() { x.Free() })
	return x
}

func runBench(b *testing.B, bytes int64, f func() (*ops.Tensor, error)) {
	ctx := context.Background()
	b.Helper()
	// Warm up (allocation pool, module load).
	for range 2 {
		y, err := f()
		if err != nil {
			b.Fatal(err)
		}
		y.Free()
	}
	if err := ops.Synchronize(ctx, dev); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(bytes)
	b.ResetTimer()
	for range b.N {
		y, err := f()
		if err != nil {
			b.Fatal(err)
		}
		y.Free()
	}
	if err := ops.Synchronize(ctx, dev); err != nil {
		b.Fatal(err)
	}
}

var benchSizes = []int{1 << 12, 1 << 20, 1 << 28}

func BenchmarkElementwise(b *testing.B) {
	ctx := context.Background()
	copyOp := ops.Builtin.Contiguous
	for _, dtype := range []ops.DType{ops.Float32, ops.Float64} {
		for _, n := range benchSizes {
			if dtype == ops.Float64 && n > 1<<27 {
				n = 1 << 27
			}
			sz := int64(n * dtype.Size())
			b.Run(fmt.Sprintf("Copy/%v/%d", dtype, n), func(b *testing.B) {
				x := benchTensor(b, dtype, n)
				runBench(b, 2*sz, func() (*ops.Tensor, error) { return copyOp.Call(ctx, []*ops.Tensor{x}, ops.Args{}) })
			})
			b.Run(fmt.Sprintf("AddScalar/%v/%d", dtype, n), func(b *testing.B) {
				x := benchTensor(b, dtype, n)
				runBench(b, 2*sz, func() (*ops.Tensor, error) { return ops.AddScalar(ctx, x, 1) })
			})
			b.Run(fmt.Sprintf("Axpby/%v/%d", dtype, n), func(b *testing.B) {
				x, y := benchTensor(b, dtype, n), benchTensor(b, dtype, n)
				runBench(b, 3*sz, func() (*ops.Tensor, error) { return ops.Axpby(ctx, 2, x, 3, y) })
			})
			b.Run(fmt.Sprintf("Polynomial/%v/%d", dtype, n), func(b *testing.B) {
				x := benchTensor(b, dtype, n)
				runBench(b, 2*sz, func() (*ops.Tensor, error) { return ops.Polynomial(ctx, x, 1, 2, 3, 4) })
			})
			b.Run(fmt.Sprintf("PolynomialBackward/%v/%d", dtype, n), func(b *testing.B) {
				x, g := benchTensor(b, dtype, n), benchTensor(b, dtype, n)
				runBench(b, 3*sz, func() (*ops.Tensor, error) { return backward.Polynomial(ctx, g, x, 1, 2, 3) })
			})
			b.Run(fmt.Sprintf("Norm/%v/%d", dtype, n), func(b *testing.B) {
				x := benchTensor(b, dtype, n)
				runBench(b, sz, func() (*ops.Tensor, error) { return ops.Norm(ctx, x) })
			})
		}
	}
	b.Run("Contiguous/transposed/float32/8192x8192", func(b *testing.B) {
		x := must(b)(benchTensor(b, ops.Float32, 8192, 8192).Transpose(0, 1))
		runBench(b, 2*4*8192*8192, func() (*ops.Tensor, error) { return x.Contiguous(ctx) })
	})
}

func BenchmarkRowSoftmax(b *testing.B) {
	ctx := context.Background()
	for _, s := range [][2]int{{65536, 128}, {16384, 1024}, {4096, 8192}} {
		for _, dtype := range []ops.DType{ops.Float32, ops.Float64} {
			b.Run(fmt.Sprintf("%v/%dx%d", dtype, s[0], s[1]), func(b *testing.B) {
				x := benchTensor(b, dtype, s[0], s[1])
				runBench(b, int64(2*s[0]*s[1]*dtype.Size()), func() (*ops.Tensor, error) { return ops.RowSoftmax(ctx, x) })
			})
		}
	}
}

func BenchmarkMatMul(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{512, 2048, 4096} {
		for _, dtype := range []ops.DType{ops.Float32, ops.Float64} {
			b.Run(fmt.Sprintf("%v/%d", dtype, n), func(b *testing.B) {
				x, y := benchTensor(b, dtype, n, n), benchTensor(b, dtype, n, n)
				runBench(b, 0, func() (*ops.Tensor, error) { return ops.MatMul(ctx, x, y) })
				b.ReportMetric(2*float64(n)*float64(n)*float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e12, "TFLOP/s")
			})
		}
	}
}
