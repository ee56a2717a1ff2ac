// Package nn's layer norm: one block per row (a grid-stride loop past 2^20 rows), statistics
// reduced in a fixed order so results are deterministic; bfloat16 is computed in float, float64 in
// double. The weight and bias gradients are column sums (nn_common.cuh).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "models/gpt2/nn/nn.h"
#include "models/gpt2/nn/nn_common.cuh"

namespace nn {
namespace {

// The mean and 1/sqrt(var + eps) of row x[0, C), two passes.
template <typename T>
__device__ void row_stats(const T* x, long long C, double eps, acc_t<T>* shared, acc_t<T>* mean,
                          acc_t<T>* rstd) {
  using A = acc_t<T>;
  A s = 0;
  for (long long c = threadIdx.x; c < C; c += blockDim.x) s += load(x, c);
  const A m = block_sum(s, shared) / A(C);
  A q = 0;
  for (long long c = threadIdx.x; c < C; c += blockDim.x) {
    const A d = A(load(x, c)) - m;
    q += d * d;
  }
  const A var = block_sum(q, shared) / A(C);
  *mean = m;
  *rstd = A(1) / dsqrt(var + A(eps));
}

template <typename T>
__global__ void layernorm_forward_kernel(T* out, const T* x, const T* w, const T* b, long long N,
                                         long long C, double eps) {
  using A = acc_t<T>;
  __shared__ A shared[32];
  for (long long r = blockIdx.x; r < N; r += gridDim.x) {
    A mean, rstd;
    row_stats(x + r * C, C, eps, shared, &mean, &rstd);
    for (long long c = threadIdx.x; c < C; c += blockDim.x) {
      store(out, r * C + c, (A(load(x, r * C + c)) - mean) * rstd * A(load(w, c)) + A(load(b, c)));
    }
  }
}

// dx of each row; stats[2r], stats[2r+1]: the row's mean and rstd for the column sums.
template <typename T>
__global__ void layernorm_dx_kernel(T* dx, const T* g, const T* x, const T* w, acc_t<T>* stats,
                                    long long N, long long C, double eps) {
  using A = acc_t<T>;
  __shared__ A shared[32];
  for (long long r = blockIdx.x; r < N; r += gridDim.x) {
    A mean, rstd;
    row_stats(x + r * C, C, eps, shared, &mean, &rstd);
    A s1 = 0, s2 = 0;
    for (long long c = threadIdx.x; c < C; c += blockDim.x) {
      const A dxhat = A(load(g, r * C + c)) * A(load(w, c));
      s1 += dxhat;
      s2 += dxhat * (A(load(x, r * C + c)) - mean) * rstd;
    }
    const A m1 = block_sum(s1, shared) / A(C);
    const A m2 = block_sum(s2, shared) / A(C);
    for (long long c = threadIdx.x; c < C; c += blockDim.x) {
      const A xhat = (A(load(x, r * C + c)) - mean) * rstd;
      const A dxhat = A(load(g, r * C + c)) * A(load(w, c));
      store(dx, r * C + c, rstd * (dxhat - m1 - xhat * m2));
    }
    if (threadIdx.x == 0) {
      stats[2 * r] = mean;
      stats[2 * r + 1] = rstd;
    }
  }
}

}  // namespace
}  // namespace nn

using namespace nn;

extern "C" int nn_layernorm_forward(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr x,
                                    nn_ptr w, nn_ptr b, long long N, long long C, double eps) {
  NN_ENTER(device);
  if (N == 0 || C == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty)                                                                      \
  layernorm_forward_kernel<Ty><<<row_blocks(N), kThreads, 0, s>>>(                       \
      (Ty*)out, (const Ty*)x, (const Ty*)w, (const Ty*)b, N, C, eps)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}

extern "C" int nn_layernorm_backward(nn_ptr stream, int device, int dtype, nn_ptr dx, nn_ptr dw,
                                     nn_ptr db, nn_ptr g, nn_ptr x, nn_ptr w, nn_ptr stats,
                                     long long N, long long C, double eps) {
  NN_ENTER(device);
  if (C == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty)                                                                             \
  do {                                                                                         \
    if (N > 0)                                                                                 \
      layernorm_dx_kernel<Ty><<<row_blocks(N), kThreads, 0, s>>>(                              \
          (Ty*)dx, (const Ty*)g, (const Ty*)x, (const Ty*)w, (acc_t<Ty>*)stats, N, C, eps);    \
    column_sums_kernel<Ty><<<column_blocks(C), dim3(kColX, kColY), 0, s>>>(                    \
        (Ty*)dw, (Ty*)db, (const Ty*)g, (const Ty*)x, (const acc_t<Ty>*)stats, N, C);          \
  } while (0)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}
