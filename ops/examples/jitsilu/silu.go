// Package jitsilu is the worked example of an op whose CUDA kernel is compiled just in time: SiLU
// (x * sigmoid(x)) and its backward, registered with ops like ops/examples/square, but with the
// CUDA kernels as a CUDA C++ source string (Source) that NVRTC compiles on first use, through the
// disk cache of package ops/cuda/jit, for the GPU at hand.
//
// This package holds the op (schema, shape rule, backward), its CPU kernels and the CUDA source;
// it needs no GPU. Its CUDA kernels are registered by package ops/examples/jitsilu/gpu, which
// loads and launches the compiled code through ops/cuda/jit/jitload; a program that imports it
// still starts without a GPU (its CUDA tensors then fail with cuda.ErrNoDevice, as ops/cuda's do):
//
//	import (
//		"github.com/rules-cuda-go/rules_cuda_go/ops/examples/jitsilu"
//		_ "github.com/rules-cuda-go/rules_cuda_go/ops/examples/jitsilu/gpu" // CUDA kernels
//	)
//
//	y, err := jitsilu.SiLU(ctx, xd) // xd on ops.CUDA(0): compiled once, then read from the cache
package jitsilu

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/rules-cuda-go/rules_cuda_go/ops"
	"github.com/rules-cuda-go/rules_cuda_go/ops/cuda/jit"
)

// Source is the CUDA C++ source of the op's kernels: templates over the element type, computing
// in double and rounding once, like ops' built-in kernels. It uses CCCL's libcu++ from the
// toolkit's headers.
const Source = `#include <cuda/std/type_traits>

template <typename T>
__device__ __forceinline__ void check_type() {
  static_assert(cuda::std::is_floating_point<T>::value, "SiLU: floating-point types only");
}

// y = x * sigmoid(x) = x / (1 + exp(-x))
template <typename T>
__global__ void silu_forward(T* __restrict__ y, const T* __restrict__ x, long long n) {
  check_type<T>();
  long long stride = (long long)blockDim.x * gridDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    double v = (double)x[i];
    y[i] = (T)(v / (1.0 + exp(-v)));
  }
}

// gx = g * d/dx silu(x) = g * s * (1 + x * (1 - s)), s = sigmoid(x)
template <typename T>
__global__ void silu_backward(T* __restrict__ gx, const T* __restrict__ g, const T* __restrict__ x,
                              long long n) {
  check_type<T>();
  long long stride = (long long)blockDim.x * gridDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    double v = (double)x[i];
    double s = 1.0 / (1.0 + exp(-v));
    gx[i] = (T)((double)g[i] * s * (1.0 + v * (1.0 - s)));
  }
}
`

// ForwardKernel returns the name expression of the forward kernel for a dtype
// ("silu_forward<float>" for ops.Float32).
func ForwardKernel(d ops.DType) string { return "silu_forward<" + ctype(d) + ">" }

// BackwardKernel returns the name expression of the backward kernel for a dtype.
func BackwardKernel(d ops.DType) string { return "silu_backward<" + ctype(d) + ">" }

// CheckDType returns an error wrapping ops.ErrDType unless d is one of the op's dtypes (float32
// and float64; the example has no 16-bit kernels).
func CheckDType(op string, d ops.DType) error {
	if d != ops.Float32 && d != ops.Float64 {
		return fmt.Errorf("%s: dtype %v is not supported (float32 and float64 only; convert with AsType): %w", op, d, ops.ErrDType)
	}
	return nil
}

func ctype(d ops.DType) string {
	if d == ops.Float32 {
		return "float"
	}
	return "double"
}

// Program returns the program NVRTC compiles: Source with the name expressions of the four
// kernel instantiations.
func Program() jit.Program {
	return jit.Program{
		Name:            "silu.cu",
		Source:          Source,
		NameExpressions: []string{ForwardKernel(ops.Float32), ForwardKernel(ops.Float64), BackwardKernel(ops.Float32), BackwardKernel(ops.Float64)},
		Options:         []string{"-std=c++17"},
	}
}

// SiLUOp and SiLUBackwardOp are the example's ops, with their CPU kernels; package gpu registers
// their CUDA kernels on them.
var SiLUOp = ops.RegisterOp(ops.OpDef{
	Name:  "SiLU",
	Args:  []ops.Arg{{Name: "x", Kind: ops.KindTensor}},
	Shape: func(in []*ops.Tensor, _ ops.Args) ([]int, error) { return in[0].Shape(), nil },
	// The backward runs with the forward's context: on a GPU, on the forward's stream.
	Backward: func(ctx context.Context, g *ops.Tensor, in []*ops.Tensor, _ ops.Args, _ *ops.Tensor) ([]*ops.Tensor, error) {
		gx, err := SiLUBackward(ctx, g, in[0])
		return []*ops.Tensor{gx}, err
	},
	CPU: ops.ContiguousInputs(forwardCPU),
})

var SiLUBackwardOp = ops.RegisterOp(ops.OpDef{
	Name: "SiLUBackward",
	Args: []ops.Arg{{Name: "gradOut", Kind: ops.KindTensor}, {Name: "x", Kind: ops.KindTensor}},
	Shape: func(in []*ops.Tensor, _ ops.Args) ([]int, error) {
		if !slices.Equal(in[0].Shape(), in[1].Shape()) {
			return nil, fmt.Errorf("gradOut has shape %v, x has shape %v: they must match", in[0].Shape(), in[1].Shape())
		}
		return in[1].Shape(), nil
	},
	CPU: ops.ContiguousInputs(backwardCPU),
})

// SiLU returns x * sigmoid(x) elementwise, on x's device, queued where ctx says (with ops/cuda, on
// the stream of cuda.WithStream); it records itself for autograd.
func SiLU(ctx context.Context, x *ops.Tensor) (*ops.Tensor, error) {
	return SiLUOp.Call(ctx, []*ops.Tensor{x}, ops.Args{})
}

// SiLUBackward returns gradOut * d/dx SiLU(x), the gradient of SiLU's input; gradOut and x must
// have the same shape.
func SiLUBackward(ctx context.Context, gradOut, x *ops.Tensor) (*ops.Tensor, error) {
	return SiLUBackwardOp.Call(ctx, []*ops.Tensor{gradOut, x}, ops.Args{})
}

// Silu is the forward function in float64, the reference of the kernels.
func Silu(v float64) float64 { return v / (1 + math.Exp(-v)) }

// SiluGrad is d/dx Silu(x) in float64.
func SiluGrad(v float64) float64 {
	s := 1 / (1 + math.Exp(-v))
	return s * (1 + v*(1-s))
}

// forwardCPU: out is fresh and contiguous, and so is x (ops.ContiguousInputs).
func forwardCPU(_ context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	return elementwiseCPU("SiLU", out, in, func(v []float64) float64 { return Silu(v[0]) })
}

func backwardCPU(_ context.Context, out *ops.Tensor, in []*ops.Tensor, _ ops.Args) error {
	return elementwiseCPU("SiLUBackward", out, in, func(v []float64) float64 { return v[0] * SiluGrad(v[1]) })
}

// elementwiseCPU computes out[i] = f(in[0][i], in[1][i], ...) in float64, rounding once to out's
// dtype; out and the inputs are contiguous.
func elementwiseCPU(op string, out *ops.Tensor, in []*ops.Tensor, f func([]float64) float64) error {
	if err := CheckDType(op, out.DType()); err != nil {
		return err
	}
	if out.DType() == ops.Float32 {
		apply(ops.HostView[float32](out), in, f)
	} else {
		apply(ops.HostView[float64](out), in, f)
	}
	return nil
}

// apply runs f over the elements of the contiguous CPU tensors in, into dst.
func apply[T float32 | float64](dst []T, in []*ops.Tensor, f func([]float64) float64) {
	srcs := make([][]T, len(in))
	for j, t := range in {
		srcs[j] = ops.HostView[T](t)
	}
	v := make([]float64, len(in))
	for i := range dst {
		for j, src := range srcs {
			v[j] = float64(src[i])
		}
		dst[i] = T(f(v))
	}
}
