// Package nn's cross-entropy: one block per row of logits (a grid-stride loop past 2^20 rows),
// reduced in a fixed order so the loss is deterministic; targets of -1 are ignored and a target out
// of range makes the loss NaN.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "models/gpt2/nn/nn.h"
#include "models/gpt2/nn/nn_common.cuh"

namespace nn {
namespace {

// logsumexp of row x[0, V).
template <typename T>
__device__ acc_t<T> row_lse(const T* x, long long V, acc_t<T>* shared) {
  using A = acc_t<T>;
  A m = -INFINITY;
  for (long long i = threadIdx.x; i < V; i += blockDim.x) m = fmax(m, A(load(x, i)));
  m = block_max(m, shared);
  A s = 0;
  for (long long i = threadIdx.x; i < V; i += blockDim.x) s += dexp(A(load(x, i)) - m);
  return m + dlog(block_sum(s, shared));
}

// scratch[r]: the row's loss (0 when ignored, NaN for a target out of range); scratch[N + r]: 1
// when counted.
template <typename T>
__global__ void cross_entropy_rows_kernel(acc_t<T>* scratch, const T* x, const int32_t* targets,
                                          long long N, long long V) {
  using A = acc_t<T>;
  __shared__ A shared[32];
  for (long long r = blockIdx.x; r < N; r += gridDim.x) {
    const int32_t t = targets[r];
    if (t == -1) {
      if (threadIdx.x == 0) scratch[r] = scratch[N + r] = 0;
      continue;
    }
    const A lse = row_lse(x + r * V, V, shared);
    if (threadIdx.x == 0) {
      scratch[r] = (t >= 0 && t < V) ? lse - A(load(x, r * V + t)) : A(NAN);
      scratch[N + r] = 1;
    }
  }
}

// loss[0] = sum(scratch[0, N)) / sum(scratch[N, 2N)): one block of 1024 threads.
template <typename A, typename L>
__global__ void cross_entropy_mean_kernel(L* loss, const A* scratch, long long N) {
  __shared__ double shared[32];
  double s = 0, n = 0;
  for (long long r = threadIdx.x; r < N; r += blockDim.x) {
    s += scratch[r];
    n += scratch[N + r];
  }
  s = block_sum(s, shared);
  n = block_sum(n, shared);
  if (threadIdx.x == 0) loss[0] = (L)(s / n);
}

// count[0] = number of targets that are not -1: one block of 1024 threads.
template <typename A>
__global__ void count_kernel(A* count, const int32_t* targets, long long N) {
  __shared__ double shared[32];
  double n = 0;
  for (long long r = threadIdx.x; r < N; r += blockDim.x) n += targets[r] != -1 ? 1 : 0;
  n = block_sum(n, shared);
  if (threadIdx.x == 0) count[0] = (A)n;
}

template <typename T, typename L>
__global__ void cross_entropy_backward_kernel(T* dx, const L* g, const T* x, const int32_t* targets,
                                              const acc_t<T>* count, long long N, long long V) {
  using A = acc_t<T>;
  __shared__ A shared[32];
  for (long long r = blockIdx.x; r < N; r += gridDim.x) {
    const int32_t t = targets[r];
    if (t == -1) {
      for (long long i = threadIdx.x; i < V; i += blockDim.x) store(dx, r * V + i, A(0));
      continue;
    }
    const A lse = row_lse(x + r * V, V, shared);
    const A scale = A(g[0]) / count[0];
    const bool ok = t >= 0 && t < V;
    for (long long i = threadIdx.x; i < V; i += blockDim.x) {
      A p = dexp(A(load(x, r * V + i)) - lse);
      if (i == t) p -= A(1);
      store(dx, r * V + i, ok ? scale * p : A(NAN));
    }
  }
}

}  // namespace
}  // namespace nn

using namespace nn;

extern "C" int nn_cross_entropy_forward(nn_ptr stream, int device, int dtype, nn_ptr loss,
                                        nn_ptr logits, nn_ptr targets, nn_ptr scratch, long long N,
                                        long long V) {
  NN_ENTER(device);
  cudaStream_t s = as_stream(stream);
  // The loss is float for float32 and bfloat16 logits, double for float64 ones.
#define LAUNCH(Ty)                                                                               \
  do {                                                                                           \
    using A = acc_t<Ty>;                                                                         \
    if (N > 0)                                                                                   \
      cross_entropy_rows_kernel<Ty><<<row_blocks(N), kThreads, 0, s>>>(                          \
          (A*)scratch, (const Ty*)logits, (const int32_t*)targets, N, V);                        \
    cross_entropy_mean_kernel<A, A><<<1, 1024, 0, s>>>((A*)loss, (const A*)scratch, N);          \
  } while (0)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}

extern "C" int nn_cross_entropy_backward(nn_ptr stream, int device, int dtype, nn_ptr dlogits,
                                         nn_ptr g, nn_ptr logits, nn_ptr targets, nn_ptr scratch,
                                         long long N, long long V) {
  NN_ENTER(device);
  if (N == 0 || V == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty)                                                                          \
  do {                                                                                      \
    using A = acc_t<Ty>;                                                                    \
    count_kernel<A><<<1, 1024, 0, s>>>((A*)scratch, (const int32_t*)targets, N);            \
    cross_entropy_backward_kernel<Ty, A><<<row_blocks(N), kThreads, 0, s>>>(                \
        (Ty*)dlogits, (const A*)g, (const Ty*)logits, (const int32_t*)targets, (const A*)scratch, \
        N, V);                                                                              \
  } while (0)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}
