// Package gemm adds a Gemm op (matrix product) to the rules_cuda_go tensor library whose CUDA
// kernel is cuBLAS: gemm.cu calls cublasSgemm/cublasDgemm, linked through the @cuda//:cublas
// target of the CUDA toolkit that rules_cuda_go downloads (--cuda_version picks it). The CPU
// kernel (the fallback) accumulates in float64.
//
//	Gemm(ctx, a, b)    a [M, K] times b [K, N], a new [M, N] tensor on the inputs' device
//
// It records itself for autograd (dA = g·Bᵀ, dB = Aᵀ·g, computed with Gemm again).
package gemm

// #include "gemm/gemm.h"
import "C"

import (
	"context"
	"fmt"
	"math"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda"
)

var gemmOp *ops.Op

func init() {
	gemmOp = ops.RegisterOp(ops.OpDef{
		Name: "Gemm",
		Args: []ops.Arg{{Name: "a", Kind: ops.KindTensor}, {Name: "b", Kind: ops.KindTensor}},
		Shape: func(in []*ops.Tensor, _ ops.Args) ([]int, error) {
			a, b := in[0].Shape(), in[1].Shape()
			switch d := in[0].DType(); {
			case d != ops.Float32 && d != ops.Float64:
				return nil, &ops.OpError{Arg: "a", Kind: ops.ErrDType, Detail: fmt.Sprintf("a has dtype %v, expected float32 or float64 (cuBLAS's Sgemm and Dgemm)", d)}
			case len(a) != 2:
				return nil, &ops.OpError{Arg: "a", Kind: ops.ErrShape, Detail: fmt.Sprintf("a has shape %v, expected 2-D [M K]", a)}
			case len(b) != 2:
				return nil, &ops.OpError{Arg: "b", Kind: ops.ErrShape, Detail: fmt.Sprintf("b has shape %v, expected 2-D [K N]", b)}
			case a[1] != b[0]:
				return nil, &ops.OpError{Arg: "b", Kind: ops.ErrShape, Detail: fmt.Sprintf("a has shape %v, b has shape %v: inner dimensions must match", a, b)}
			case a[0] > math.MaxInt32 || a[1] > math.MaxInt32 || b[1] > math.MaxInt32:
				return nil, &ops.OpError{Arg: "a", Kind: ops.ErrShape, Detail: fmt.Sprintf("shapes %v and %v: cuBLAS takes dimensions below 2^31", a, b)}
			}
			return []int{a[0], b[1]}, nil
		},
		// With the forward's context: on a GPU, the backward runs on the forward's stream.
		Backward: func(ctx context.Context, g *ops.Tensor, in []*ops.Tensor, _ ops.Args, _ *ops.Tensor) ([]*ops.Tensor, error) {
			bt, err := in[1].Transpose(0, 1)
			if err != nil {
				return nil, err
			}
			at, err := in[0].Transpose(0, 1)
			if err != nil {
				return nil, err
			}
			ga, err := Gemm(ctx, g, bt)
			if err != nil {
				return nil, err
			}
			gb, err := Gemm(ctx, at, g)
			return []*ops.Tensor{ga, gb}, err
		},
		CPU: ops.ContiguousInputs(gemmCPU),
	})
	gemmOp.RegisterKernel(ops.DeviceCUDA, ops.ContiguousInputs(gemmCUDA))
}

// Gemm returns the matrix product of a [M, K] and b [K, N] as a new [M, N] tensor, computed on
// the inputs' device: by cuBLAS on a GPU (queued where ctx says: with ops/cuda, on the stream of
// cuda.WithStream), in float64 on the CPU.
func Gemm(ctx context.Context, a, b *ops.Tensor) (*ops.Tensor, error) {
	return gemmOp.Call(ctx, []*ops.Tensor{a, b}, ops.Args{})
}

// gemmRows computes c = a*b row by row, summing in float64 whatever T is.
func gemmRows[T float32 | float64](c, a, b []T, m, n, k int) {
	row := make([]float64, n)
	for i := 0; i < m; i++ {
		clear(row)
		for l := 0; l < k; l++ {
			ail := float64(a[i*k+l])
			for j, blj := range b[l*n : (l+1)*n] {
				row[j] += ail * float64(blj)
			}
		}
		for j, v := range row {
			c[i*n+j] = T(v)
		}
	}
}

// gemmCPU is Gemm's CPU kernel: out, a and b are contiguous (ops.ContiguousInputs).
func gemmCPU(_ context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	m, k, n := in[0].Shape()[0], in[0].Shape()[1], in[1].Shape()[1]
	if out.DType() == ops.Float32 {
		gemmRows(ops.HostView[float32](out), ops.HostView[float32](in[0]), ops.HostView[float32](in[1]), m, n, k)
	} else {
		gemmRows(ops.HostView[float64](out), ops.HostView[float64](in[0]), ops.HostView[float64](in[1]), m, n, k)
	}
	return nil
}

// gemmCUDA is Gemm's CUDA kernel: cuBLAS on the device addresses from cuda.NewLaunch (out, a, b,
// contiguous: ops.ContiguousInputs), queued on the op's stream (its context's).
func gemmCUDA(ctx context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	l, err := cuda.NewLaunch(ctx, out, in[0], in[1])
	if err != nil {
		return err
	}
	m, k, n := in[0].Shape()[0], in[0].Shape()[1], in[1].Shape()[1]
	code := C.gemm_cublas(C.ulonglong(l.Stream), C.int(l.Device), C.int(l.DType),
		C.ulonglong(l.Ptr[1]), C.ulonglong(l.Ptr[2]), C.ulonglong(l.Ptr[0]), C.int(m), C.int(n), C.int(k))
	if code < 0 {
		return fmt.Errorf("gemm: cuBLAS GEMM on %v: %s", out.Device(), C.GoString(C.gemm_error_name(code)))
	}
	return l.Check("gemm (cuBLAS)", int(code))
}
