// Package nn's elementwise kernels: the bias add of Linear (its gradient is a column sum,
// nn_common.cuh) and GELU (tanh approximation) with its backward.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "models/gpt2/nn/nn.h"
#include "models/gpt2/nn/nn_common.cuh"

namespace nn {
namespace {

template <typename T>
__global__ void bias_add_kernel(T* out, const T* x, const T* b, long long n, long long C) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    store(out, i, acc_t<T>(load(x, i)) + acc_t<T>(load(b, i % C)));
  }
}

template <typename A>
__device__ __forceinline__ A gelu_inner(A x) {
  const A k = A(0.7978845608028654);  // sqrt(2/pi)
  return k * (x + A(0.044715) * x * x * x);
}

template <typename T>
__global__ void gelu_forward_kernel(T* out, const T* x, long long n) {
  using A = acc_t<T>;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    const A v = load(x, i);
    store(out, i, A(0.5) * v * (A(1) + dtanh(gelu_inner(v))));
  }
}

template <typename T>
__global__ void gelu_backward_kernel(T* out, const T* g, const T* x, long long n) {
  using A = acc_t<T>;
  const A k = A(0.7978845608028654);
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    const A v = load(x, i);
    const A t = dtanh(gelu_inner(v));
    const A d = A(0.5) * (A(1) + t) + A(0.5) * v * (A(1) - t * t) * k * (A(1) + A(3 * 0.044715) * v * v);
    store(out, i, A(load(g, i)) * d);
  }
}

}  // namespace
}  // namespace nn

using namespace nn;

extern "C" int nn_bias_add(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr x, nn_ptr b,
                           long long N, long long C) {
  NN_ENTER(device);
  if (N * C == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty)                                                      \
  bias_add_kernel<Ty><<<blocks_for(N * C, kThreads), kThreads, 0, s>>>( \
      (Ty*)out, (const Ty*)x, (const Ty*)b, N * C, C)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}

extern "C" int nn_bias_grad(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr g, long long N,
                            long long C) {
  NN_ENTER(device);
  if (C == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty)                                                           \
  column_sums_kernel<Ty><<<column_blocks(C), dim3(kColX, kColY), 0, s>>>(     \
      (Ty*)nullptr, (Ty*)out, (const Ty*)g, (const Ty*)nullptr, (const acc_t<Ty>*)nullptr, N, C)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}

extern "C" int nn_gelu_forward(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr x,
                               long long n) {
  NN_ENTER(device);
  if (n == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty) \
  gelu_forward_kernel<Ty><<<blocks_for(n, kThreads), kThreads, 0, s>>>((Ty*)out, (const Ty*)x, n)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}

extern "C" int nn_gelu_backward(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr g, nn_ptr x,
                                long long n) {
  NN_ENTER(device);
  if (n == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty)                                                          \
  gelu_backward_kernel<Ty><<<blocks_for(n, kThreads), kThreads, 0, s>>>(     \
      (Ty*)out, (const Ty*)g, (const Ty*)x, n)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}
