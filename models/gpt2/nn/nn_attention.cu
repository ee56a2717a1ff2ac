// Package nn's causal self-attention kernels: one warp per row (a query row forward and for dq,
// a key row for dk and dv), each lane holding head-dimension elements lane, lane+32, ... (head
// sizes up to 32*kMaxPer = 256), dot products reduced across the warp, the softmax online
// (running max and sum) so no score matrix is stored. Work is O(T^2) per head like a plain
// attention; a flash kernel with tiles in shared memory is faster.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "models/gpt2/nn/nn.h"
#include "models/gpt2/nn/nn_common.cuh"

namespace nn {
namespace {

constexpr int kMaxPer = 8;  // head dimensions per lane
constexpr int kWarps = 4;   // warps per block

// Where rows live: qkv[b, t, part*C + h*D + d], g and out [b, t, h*D + d].
struct Dims {
  long long B, T, H, D, C;
  __device__ long long qkv(long long b, long long t, int part, long long h) const {
    return (b * T + t) * 3 * C + part * C + h * D;
  }
  __device__ long long o(long long b, long long t, long long h) const { return (b * T + t) * C + h * D; }
};

// Loads D elements of row p (from element off) into the lane's registers (0 past D).
template <typename T, typename A>
__device__ __forceinline__ void load_row(A (&r)[kMaxPer], const T* p, long long off, long long D) {
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int k = 0; k < kMaxPer; k++) {
    const long long d = lane + 32 * k;
    r[k] = d < D ? A(load(p, off + d)) : A(0);
  }
}

template <typename A>
__device__ __forceinline__ A dot(const A (&a)[kMaxPer], const A (&b)[kMaxPer]) {
  A s = 0;
#pragma unroll
  for (int k = 0; k < kMaxPer; k++) s += a[k] * b[k];
  return warp_sum(s);
}

// The warp's row: (b, h, t) of the rows of all heads, -1 when past the end.
__device__ __forceinline__ long long warp_row(long long rows) {
  const long long w = (long long)blockIdx.x * kWarps + threadIdx.x / 32;
  return w < rows ? w : -1;
}

template <typename T>
__global__ void attention_forward_kernel(T* out, const T* qkv, Dims d, long long rows, long long stride) {
  using A = acc_t<T>;
  const int lane = threadIdx.x % 32;
  const A scale = A(1) / dsqrt(A(d.D));
  for (long long w = warp_row(rows); w >= 0 && w < rows; w += stride) {
    const long long t = w % d.T, h = (w / d.T) % d.H, b = w / (d.T * d.H);
    A q[kMaxPer], k[kMaxPer], v[kMaxPer], acc[kMaxPer];
    load_row(q, qkv, d.qkv(b, t, 0, h), d.D);
#pragma unroll
    for (int e = 0; e < kMaxPer; e++) acc[e] = 0;
    A m = -INFINITY, l = 0;
    for (long long j = 0; j <= t; j++) {
      load_row(k, qkv, d.qkv(b, j, 1, h), d.D);
      const A s = dot(q, k) * scale;
      const A mn = fmax(m, s);
      const A corr = dexp(m - mn), p = dexp(s - mn);
      l = l * corr + p;
      load_row(v, qkv, d.qkv(b, j, 2, h), d.D);
#pragma unroll
      for (int e = 0; e < kMaxPer; e++) acc[e] = acc[e] * corr + p * v[e];
      m = mn;
    }
#pragma unroll
    for (int e = 0; e < kMaxPer; e++) {
      const long long i = lane + 32 * e;
      if (i < d.D) store(out, d.o(b, t, h) + i, acc[e] / l);
    }
  }
}

// Per query row w: stats[2w] = logsumexp of its scores, stats[2w+1] = g·out; and dq.
template <typename T>
__global__ void attention_dq_kernel(T* dqkv, acc_t<T>* stats, const T* g, const T* qkv,
                                    const T* out, Dims d, long long rows, long long stride) {
  using A = acc_t<T>;
  const int lane = threadIdx.x % 32;
  const A scale = A(1) / dsqrt(A(d.D));
  for (long long w = warp_row(rows); w >= 0 && w < rows; w += stride) {
    const long long t = w % d.T, h = (w / d.T) % d.H, b = w / (d.T * d.H);
    A q[kMaxPer], k[kMaxPer], v[kMaxPer], go[kMaxPer], acc[kMaxPer];
    load_row(q, qkv, d.qkv(b, t, 0, h), d.D);
    A m = -INFINITY, l = 0;
    for (long long j = 0; j <= t; j++) {
      load_row(k, qkv, d.qkv(b, j, 1, h), d.D);
      const A s = dot(q, k) * scale;
      const A mn = fmax(m, s);
      l = l * dexp(m - mn) + dexp(s - mn);
      m = mn;
    }
    const A lse = m + dlog(l);
    load_row(go, g, d.o(b, t, h), d.D);
    load_row(v, out, d.o(b, t, h), d.D);
    const A D = dot(go, v);
#pragma unroll
    for (int e = 0; e < kMaxPer; e++) acc[e] = 0;
    for (long long j = 0; j <= t; j++) {
      load_row(k, qkv, d.qkv(b, j, 1, h), d.D);
      load_row(v, qkv, d.qkv(b, j, 2, h), d.D);
      const A p = dexp(dot(q, k) * scale - lse);
      const A ds = p * (dot(go, v) - D) * scale;
#pragma unroll
      for (int e = 0; e < kMaxPer; e++) acc[e] += ds * k[e];
    }
#pragma unroll
    for (int e = 0; e < kMaxPer; e++) {
      const long long i = lane + 32 * e;
      if (i < d.D) store(dqkv, d.qkv(b, t, 0, h) + i, acc[e]);
    }
    if (lane == 0) {
      stats[2 * w] = lse;
      stats[2 * w + 1] = D;
    }
  }
}

// Per key row w (key j): dk and dv over the queries t >= j, from the query rows' stats.
template <typename T>
__global__ void attention_dkv_kernel(T* dqkv, const acc_t<T>* stats, const T* g, const T* qkv,
                                     Dims d, long long rows, long long stride) {
  using A = acc_t<T>;
  const int lane = threadIdx.x % 32;
  const A scale = A(1) / dsqrt(A(d.D));
  for (long long w = warp_row(rows); w >= 0 && w < rows; w += stride) {
    const long long j = w % d.T, h = (w / d.T) % d.H, b = w / (d.T * d.H);
    A q[kMaxPer], k[kMaxPer], v[kMaxPer], go[kMaxPer], dk[kMaxPer], dv[kMaxPer];
    load_row(k, qkv, d.qkv(b, j, 1, h), d.D);
    load_row(v, qkv, d.qkv(b, j, 2, h), d.D);
#pragma unroll
    for (int e = 0; e < kMaxPer; e++) dk[e] = dv[e] = 0;
    const long long base = w - j;  // the row of query 0 of this (b, h)
    for (long long t = j; t < d.T; t++) {
      load_row(q, qkv, d.qkv(b, t, 0, h), d.D);
      load_row(go, g, d.o(b, t, h), d.D);
      const A lse = stats[2 * (base + t)], D = stats[2 * (base + t) + 1];
      const A p = dexp(dot(q, k) * scale - lse);
      const A ds = p * (dot(go, v) - D) * scale;
#pragma unroll
      for (int e = 0; e < kMaxPer; e++) {
        dv[e] += p * go[e];
        dk[e] += ds * q[e];
      }
    }
#pragma unroll
    for (int e = 0; e < kMaxPer; e++) {
      const long long i = lane + 32 * e;
      if (i < d.D) {
        store(dqkv, d.qkv(b, j, 1, h) + i, dk[e]);
        store(dqkv, d.qkv(b, j, 2, h) + i, dv[e]);
      }
    }
  }
}

// The launch of d's kernels: one warp per row (rows of them), blocks of kWarps warps, the grid
// stride in rows. False when the head size is too large or there is no head.
inline bool plan(const Dims& d, long long* rows, unsigned* blocks, long long* stride) {
  if (d.D > 32 * kMaxPer || d.H <= 0) return false;
  *rows = d.B * d.H * d.T;
  long long b = (*rows + kWarps - 1) / kWarps;
  if (b < 1) b = 1;
  if (b > (1 << 20)) b = 1 << 20;
  *stride = b * kWarps;
  *blocks = (unsigned)b;
  return true;
}

}  // namespace
}  // namespace nn

using namespace nn;

extern "C" int nn_attention_forward(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr qkv,
                                    long long B, long long T, long long H, long long D) {
  NN_ENTER(device);
  const Dims d{B, T, H, D, H * D};
  long long rows, stride;
  unsigned blocks;
  if (!plan(d, &rows, &blocks, &stride)) return (int)cudaErrorInvalidValue;
  if (rows == 0 || D == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty) \
  attention_forward_kernel<Ty><<<blocks, 32 * kWarps, 0, s>>>((Ty*)out, (const Ty*)qkv, d, rows, stride)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}

extern "C" int nn_attention_backward(nn_ptr stream, int device, int dtype, nn_ptr dqkv, nn_ptr g,
                                     nn_ptr qkv, nn_ptr out, nn_ptr stats, long long B, long long T,
                                     long long H, long long D) {
  NN_ENTER(device);
  const Dims d{B, T, H, D, H * D};
  long long rows, stride;
  unsigned blocks;
  if (!plan(d, &rows, &blocks, &stride)) return (int)cudaErrorInvalidValue;
  if (rows == 0 || D == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty)                                                                                 \
  do {                                                                                             \
    attention_dq_kernel<Ty><<<blocks, 32 * kWarps, 0, s>>>((Ty*)dqkv, (acc_t<Ty>*)stats,           \
                                                           (const Ty*)g, (const Ty*)qkv,           \
                                                           (const Ty*)out, d, rows, stride);       \
    attention_dkv_kernel<Ty><<<blocks, 32 * kWarps, 0, s>>>((Ty*)dqkv, (const acc_t<Ty>*)stats,    \
                                                            (const Ty*)g, (const Ty*)qkv, d, rows, \
                                                            stride);                               \
  } while (0)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}
