package ops

import (
	"context"
	"fmt"
	"testing"
)

func BenchmarkAxpby(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{1 << 10, 1 << 20} {
		for _, dtype := range dtypes {
			b.Run(fmt.Sprintf("%v/%d", dtype, n), func(b *testing.B) {
				x := fromData(b, dtype, randData(1, n, -1, 1))
				y := fromData(b, dtype, randData(2, n, -1, 1))
				b.SetBytes(int64(3 * n * dtype.Size()))
				for b.Loop() {
					if _, err := Axpby(ctx, 2, x, 3, y); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkNorm(b *testing.B) {
	ctx := context.Background()
	x := fromData(b, Float32, randData(1, 1<<22, -1, 1))
	b.SetBytes(int64(4 << 22))
	for b.Loop() {
		if _, err := Norm(ctx, x); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMatMul(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{64, 256, 512} {
		for _, dtype := range dtypes {
			b.Run(fmt.Sprintf("%v/%d", dtype, n), func(b *testing.B) {
				x := fromData(b, dtype, randData(1, n*n, -1, 1), n, n)
				y := fromData(b, dtype, randData(2, n*n, -1, 1), n, n)
				for b.Loop() {
					if _, err := MatMul(ctx, x, y); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(2*float64(n*n*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

// BenchmarkDispatch measures what ops adds to a device op call: checks,
// dispatch, output allocation (with its cleanup) and Free, on the fake CUDA
// backend with a one-element tensor (the fake kernel costs next to nothing).
func BenchmarkDispatch(b *testing.B) {
	ctx := context.Background()
	x, err := fromData(b, Float32, []float64{1}).To(ctx, CUDA(0))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		y, err := AddScalar(ctx, x, 1)
		if err != nil {
			b.Fatal(err)
		}
		if err := y.Free(); err != nil {
			b.Fatal(err)
		}
	}
}
