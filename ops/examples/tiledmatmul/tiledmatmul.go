// Package tiledmatmul is an example op: TiledMatMul, the matrix product by a hand-written tiled
// CUDA kernel (tiledmatmul.cu: shared-memory tiles, register blocking, double buffering, strided
// inputs read along their unit stride). It used to be ops.MatMul's CUDA kernel; ops.MatMul now
// calls cuBLAS, and this op stays as a worked example of a non-trivial kernel with strided
// operands, and as a benchmark row next to cuBLAS (ops/bench). Its CPU kernel is a plain triple
// loop in float64; its backward uses ops.MatMul.
package tiledmatmul

// #include "ops/examples/tiledmatmul/tiledmatmul.h"
import "C"

import (
	"context"
	"fmt"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

var tiledOp = ops.RegisterOp(ops.OpDef{
	Name: "TiledMatMul",
	Args: []ops.Arg{{Name: "a", Kind: ops.KindTensor}, {Name: "b", Kind: ops.KindTensor}},
	Shape: func(in []*ops.Tensor, _ []float64) ([]int, error) {
		a, b := in[0].Shape(), in[1].Shape()
		if len(a) != 2 {
			return nil, fmt.Errorf("a has shape %v, expected 2-D [M K]", a)
		}
		if len(b) != 2 {
			return nil, fmt.Errorf("b has shape %v, expected 2-D [K N]", b)
		}
		if a[1] != b[0] {
			return nil, fmt.Errorf("a has shape %v, b has shape %v: inner dimensions must match", a, b)
		}
		return []int{a[0], b[1]}, nil
	},
	// dA = g·Bᵀ, dB = Aᵀ·g (transposes as views), on the forward's stream.
	BackwardContext: func(ctx context.Context, g *ops.Tensor, in []*ops.Tensor, _ []float64, _ *ops.Tensor) ([]*ops.Tensor, error) {
		bt, err := in[1].Transpose(0, 1)
		if err != nil {
			return nil, err
		}
		at, err := in[0].Transpose(0, 1)
		if err != nil {
			return nil, err
		}
		ga, err := ops.MatMulContext(ctx, g, bt)
		if err != nil {
			return nil, err
		}
		gb, err := ops.MatMulContext(ctx, at, g)
		return []*ops.Tensor{ga, gb}, err
	},
	CPU: tiledCPU,
})

func init() {
	ops.RegisterKernel("TiledMatMul", ops.DeviceCUDA, tiledCUDA)
}

// TiledMatMul returns a [M, K] x b [K, N] as a new contiguous [M, N] tensor, on the inputs'
// device; it records itself for autograd.
func TiledMatMul(a, b *ops.Tensor) (*ops.Tensor, error) {
	return tiledOp.Call([]*ops.Tensor{a, b}, nil)
}

// TiledMatMulContext is TiledMatMul queued where ctx says (on a GPU, the stream of
// cuda.WithStream).
func TiledMatMulContext(ctx context.Context, a, b *ops.Tensor) (*ops.Tensor, error) {
	return tiledOp.CallContext(ctx, []*ops.Tensor{a, b}, nil)
}

// tiledCPU is the CPU kernel: a triple loop accumulating in float64.
func tiledCPU(out *ops.Tensor, in []*ops.Tensor, _ []float64) error {
	in, release, err := ops.ContiguousAll(context.Background(), in...)
	if err != nil {
		return err
	}
	defer release()
	if out.DType() == ops.Float32 {
		mm(ops.HostView[float32](out), ops.HostView[float32](in[0]), ops.HostView[float32](in[1]), in[0].Shape()[0], in[0].Shape()[1], in[1].Shape()[1])
	} else {
		mm(ops.HostView[float64](out), ops.HostView[float64](in[0]), ops.HostView[float64](in[1]), in[0].Shape()[0], in[0].Shape()[1], in[1].Shape()[1])
	}
	return nil
}

func mm[T float32 | float64](c, a, b []T, M, K, N int) {
	for i := range M {
		for j := range N {
			var s float64
			for k := range K {
				s += float64(a[i*K+k]) * float64(b[k*N+j])
			}
			c[i*N+j] = T(s)
		}
	}
}

// tiledCUDA is the CUDA kernel: ops has ordered the inputs before out's stream (the op's), so the
// launcher gets that stream, the device addresses and the inputs' strides (no copies).
func tiledCUDA(out *ops.Tensor, in []*ops.Tensor, _ []float64) error {
	if d := out.DType(); d != ops.Float32 && d != ops.Float64 {
		return fmt.Errorf("tiledmatmul: dtype %v is not supported (float32, float64): %w", d, ops.ErrDType)
	}
	s, err := cuda.LaunchStream(out)
	if err != nil {
		return err
	}
	var p [3]uintptr
	for i, t := range []*ops.Tensor{out, in[0], in[1]} {
		if p[i], err = cuda.DevicePtr(t); err != nil {
			return err
		}
	}
	a, b := in[0], in[1]
	as, bs := a.Strides(), b.Strides()
	M, K, N := a.Shape()[0], a.Shape()[1], b.Shape()[1]
	return cuda.LaunchError("TiledMatMul kernel", int(C.tiledmatmul_launch(C.ulonglong(s.Handle()), C.int(s.Device().Index),
		C.int(cuda.DTypeCode(out.DType())), C.ulonglong(p[0]), C.ulonglong(p[1]), C.longlong(as[0]), C.longlong(as[1]),
		C.ulonglong(p[2]), C.longlong(bs[0]), C.longlong(bs[1]), C.longlong(M), C.longlong(N), C.longlong(K))))
}
