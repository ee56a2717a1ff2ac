// Package gemm adds a Gemm op (matrix product) to the rules_cuda_go tensor library whose CUDA
// kernel is cuBLAS: gemm.cu calls cublasSgemm/cublasDgemm, linked through the @cuda//:cublas
// target of the CUDA toolkit that rules_cuda_go downloads (--cuda_version picks it). The CPU
// kernel (the fallback) accumulates in float64.
//
//	Gemm(a, b)    a [M, K] times b [K, N], a new [M, N] tensor on the inputs' device
//
// It records itself for autograd (dA = g·Bᵀ, dB = Aᵀ·g, computed with Gemm again).
package gemm

// #include "gemm/gemm.h"
import "C"

import (
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
		Shape: func(in []*ops.Tensor, _ []float64) ([]int, error) {
			a, b := in[0].Shape(), in[1].Shape()
			switch {
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
		Backward: func(g *ops.Tensor, in []*ops.Tensor, _ []float64, _ *ops.Tensor) ([]*ops.Tensor, error) {
			bt, err := in[1].Transpose(0, 1)
			if err != nil {
				return nil, err
			}
			at, err := in[0].Transpose(0, 1)
			if err != nil {
				return nil, err
			}
			ga, err := Gemm(g, bt)
			if err != nil {
				return nil, err
			}
			gb, err := Gemm(at, g)
			return []*ops.Tensor{ga, gb}, err
		},
		CPU: gemmCPU,
	})
	ops.RegisterKernel("Gemm", ops.DeviceCUDA, gemmCUDA)
}

// Gemm returns the matrix product of a [M, K] and b [K, N] as a new [M, N] tensor, computed on
// the inputs' device: by cuBLAS on a GPU, in float64 on the CPU.
func Gemm(a, b *ops.Tensor) (*ops.Tensor, error) {
	return gemmOp.Call([]*ops.Tensor{a, b}, nil)
}

// contiguous returns the tensors as contiguous tensors (themselves where they already are) and
// a function that frees the copies it made.
func contiguous(in []*ops.Tensor) ([]*ops.Tensor, func(), error) {
	out := make([]*ops.Tensor, len(in))
	release := func() {
		for i, t := range out {
			if t != nil && t != in[i] {
				t.Free()
			}
		}
	}
	for i, t := range in {
		c, err := t.Contiguous()
		if err != nil {
			release()
			return nil, nil, err
		}
		out[i] = c
	}
	return out, release, nil
}

// host returns the n elements of a contiguous CPU tensor from its offset.
func host[T float32 | float64](t *ops.Tensor, n int) []T {
	s := t.Storage().(*ops.CPUStorage)
	var all any = s.Float64()
	if t.DType() == ops.Float32 {
		all = s.Float32()
	}
	return all.([]T)[t.Offset() : t.Offset()+n]
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

// gemmCPU is Gemm's CPU kernel: out is fresh and contiguous; a and b may be any views.
func gemmCPU(out *ops.Tensor, in []*ops.Tensor, _ []float64) error {
	in, release, err := contiguous(in)
	if err != nil {
		return err
	}
	defer release()
	m, k, n := in[0].Shape()[0], in[0].Shape()[1], in[1].Shape()[1]
	if out.DType() == ops.Float32 {
		gemmRows(host[float32](out, m*n), host[float32](in[0], m*k), host[float32](in[1], k*n), m, n, k)
	} else {
		gemmRows(host[float64](out, m*n), host[float64](in[0], m*k), host[float64](in[1], k*n), m, n, k)
	}
	return nil
}

// devicePtr returns the device address of a contiguous CUDA tensor's first element.
func devicePtr(t *ops.Tensor) (C.ulonglong, error) {
	s, ok := t.Storage().(*cuda.Storage)
	if !ok {
		return 0, fmt.Errorf("gemm: CUDA kernel got %T storage, expected *cuda.Storage", t.Storage())
	}
	return C.ulonglong(s.Ptr() + uintptr(t.Offset()*t.DType().Size())), nil
}

// gemmCUDA is Gemm's CUDA kernel: cuBLAS on the device addresses, queued on the device's legacy
// default stream like the library's own kernels, so it is ordered with them and with the copies
// of ops.Tensor.To.
func gemmCUDA(out *ops.Tensor, in []*ops.Tensor, _ []float64) error {
	in, release, err := contiguous(in)
	if err != nil {
		return err
	}
	defer release() // stream-ordered frees: safe with the GEMM still queued
	var ptrs [3]C.ulonglong
	for i, t := range []*ops.Tensor{in[0], in[1], out} {
		if ptrs[i], err = devicePtr(t); err != nil {
			return err
		}
	}
	dtype := C.int(0)
	if out.DType() == ops.Float64 {
		dtype = 1
	}
	m, k, n := in[0].Shape()[0], in[0].Shape()[1], in[1].Shape()[1]
	if code := C.gemm_cublas(C.int(out.Device().Index), dtype, ptrs[0], ptrs[1], ptrs[2], C.int(m), C.int(n), C.int(k)); code != 0 {
		return fmt.Errorf("gemm: cuBLAS GEMM on %v: %s", out.Device(), C.GoString(C.gemm_error_name(code)))
	}
	return nil
}
