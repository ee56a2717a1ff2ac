// Package tiledmatmul is an example op: TiledMatMul, the matrix product by a hand-written tiled
// CUDA kernel (tiledmatmul.cu: shared-memory tiles, register blocking, double buffering, strided
// inputs read along their unit stride). It used to be ops.MatMul's CUDA kernel; ops.MatMul now
// calls cuBLAS, and this op stays as a worked example of a non-trivial kernel with strided
// operands, and as a benchmark row next to cuBLAS (bench/). Its CPU kernel is a plain triple
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
	Shape: func(in []*ops.Tensor, _ ops.Args) ([]int, error) {
		if err := checkDType(in[0].DType()); err != nil {
			return nil, err
		}
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
	Backward: func(ctx context.Context, g *ops.Tensor, in []*ops.Tensor, _ ops.Args, _ *ops.Tensor) ([]*ops.Tensor, error) {
		bt, err := in[1].Transpose(0, 1)
		if err != nil {
			return nil, err
		}
		at, err := in[0].Transpose(0, 1)
		if err != nil {
			return nil, err
		}
		ga, err := ops.MatMul(ctx, g, bt)
		if err != nil {
			return nil, err
		}
		gb, err := ops.MatMul(ctx, at, g)
		return []*ops.Tensor{ga, gb}, err
	},
	CPU: ops.ContiguousInputs(tiledCPU),
})

func init() {
	tiledOp.RegisterKernel(ops.DeviceCUDA, tiledCUDA)
}

// TiledMatMul returns a [M, K] x b [K, N] as a new contiguous [M, N] tensor, on the inputs'
// device, queued where ctx says (on a GPU, on the stream of cuda.WithStream); it records itself
// for autograd.
func TiledMatMul(ctx context.Context, a, b *ops.Tensor) (*ops.Tensor, error) {
	return tiledOp.Call(ctx, []*ops.Tensor{a, b}, ops.Args{})
}

// tiledCPU is the CPU kernel (inputs made contiguous): a triple loop accumulating in float64.
func tiledCPU(_ context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	if out.DType() == ops.Float32 {
		mm(ops.HostView[float32](out), ops.HostView[float32](in[0]), ops.HostView[float32](in[1]), in[0].Shape()[0], in[0].Shape()[1], in[1].Shape()[1])
	} else {
		mm(ops.HostView[float64](out), ops.HostView[float64](in[0]), ops.HostView[float64](in[1]), in[0].Shape()[0], in[0].Shape()[1], in[1].Shape()[1])
	}
	return nil
}

// checkDType returns an error wrapping ops.ErrDType unless d is float32 or float64, the dtypes of
// both kernels (the shape rule checks it, so the kernels only see those).
func checkDType(d ops.DType) error {
	if d != ops.Float32 && d != ops.Float64 {
		return &ops.OpError{Arg: "a", Kind: ops.ErrDType, Detail: fmt.Sprintf("a has dtype %v, expected float32 or float64", d)}
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

// tiledCUDA is the CUDA kernel: cuda.NewLaunch gives the op's stream, the dtype code and the
// device addresses; the launcher reads the inputs through their strides (no copies).
func tiledCUDA(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	l, err := cuda.NewLaunch(ctx, out, in[0], in[1])
	if err != nil {
		return err
	}
	a, b := in[0], in[1]
	as, bs := a.Strides(), b.Strides()
	M, K, N := a.Shape()[0], a.Shape()[1], b.Shape()[1]
	return l.Check("TiledMatMul kernel", int(C.tiledmatmul_launch(C.ulonglong(l.Stream), C.int(l.Device),
		C.int(l.DType), C.ulonglong(l.Ptr[0]), C.ulonglong(l.Ptr[1]), C.longlong(as[0]), C.longlong(as[1]),
		C.ulonglong(l.Ptr[2]), C.longlong(bs[0]), C.longlong(bs[1]), C.longlong(M), C.longlong(N), C.longlong(K))))
}
