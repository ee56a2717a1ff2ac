// RowSoftmax and its backward for rows too long for registers: a block per row, with the row in
// shared memory (cp.async copies, or cached exponentials) when it fits, else in global memory.
// Private to softmax.cu (its one translation unit; hence the unnamed namespace).
#ifndef RULES_CUDA_GO_OPS_CUDA_SOFTMAX_LONG_CUH_
#define RULES_CUDA_GO_OPS_CUDA_SOFTMAX_LONG_CUH_

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#include "ops/cuda/csrc/common.cuh"
#include "ops/cuda/csrc/softmax_rows.cuh"

namespace opscuda {
namespace {

// Long unit-stride rows (kSmemMinBytes or more): a block of kSmemThreads per row, the row copied
// into shared memory with asynchronous 16-byte copies (cp.async, sm_80 and later), so a whole row is
// in flight without holding registers and two or three rows fit on an SM. Each thread only touches
// the 16-byte chunks it copied, so only the reductions need barriers.
constexpr int kSmemThreads = 512;
constexpr unsigned long long kSmemMinBytes = 32 * 1024;

__device__ __forceinline__ void copy16_async(void* smem, const void* gmem) {
#if __CUDA_ARCH__ >= 800
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
#else
  *reinterpret_cast<uint4*>(smem) = *reinterpret_cast<const uint4*>(gmem);
#endif
}

__device__ __forceinline__ void copy16_wait() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::: "memory");
#endif
}

// The 16-bit types compute in float: the shared row keeps their inputs (an exponential rounded to
// 16 bits would lose precision before the division), and the last pass recomputes exponentials.
template <typename T>
__global__ void __launch_bounds__(kSmemThreads, 3)
    softmax_smem_kernel(T* __restrict__ out, const T* __restrict__ x, long long B, int D,
                        long long s0) {
  using W = wide_t<T>;
  constexpr bool kKeepExp = std::is_same_v<W, T>;
  constexpr int N = 16 / sizeof(T);
  using P = Pack<T, N>;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  P* rs = reinterpret_cast<P*>(smem_raw);
  __shared__ W st[33];
  __shared__ double sd[33];
  const int C = D / N;
  for (long long row = blockIdx.x; row < B; row += gridDim.x) {
    const P* xr = reinterpret_cast<const P*>(x + row * s0);
    for (int c = threadIdx.x; c < C; c += kSmemThreads) copy16_async(&rs[c], &xr[c]);
    copy16_wait();
    W m = W(-INFINITY);
    for (int c = threadIdx.x; c < C; c += kSmemThreads) {
      const P p = rs[c];
#pragma unroll
      for (int k = 0; k < N; k++) m = fmax(m, to_wide(p.v[k]));
    }
    m = block_reduce<W, true>(m, st);
    double acc = 0;
    for (int c = threadIdx.x; c < C; c += kSmemThreads) {
      P p = rs[c];
      W e[N];
#pragma unroll
      for (int k = 0; k < N; k++) e[k] = ex(to_wide(p.v[k]) - m);
      if constexpr (kKeepExp) {
#pragma unroll
        for (int k = 0; k < N; k++) p.v[k] = e[k];
        rs[c] = p;
      }
      acc += double(tree_sum(e));
    }
    acc = block_reduce<double, false>(acc, sd);
    const W inv = W(1.0 / acc);
    P* orow = reinterpret_cast<P*>(out + row * D);
    for (int c = threadIdx.x; c < C; c += kSmemThreads) {
      P p = rs[c];
#pragma unroll
      for (int k = 0; k < N; k++) {
        if constexpr (kKeepExp) {
          p.v[k] *= inv;
        } else {
          p.v[k] = from_wide<T>(ex(to_wide(p.v[k]) - m) * inv);
        }
      }
      orow[c] = p;
    }
  }
}

// Whether `kernel` may be launched with `bytes` of dynamic shared memory on device: always up to
// 48 KiB; above, up to the device's opt-in limit, once the kernel's limit is raised to `bytes`.
template <typename Kernel>
bool allow_dynamic_smem(Kernel kernel, int device, unsigned long long bytes) {
  if (bytes <= 48 * 1024) return true;
  int optin = 0;
  if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) ==
          cudaSuccess &&
      bytes <= (unsigned long long)optin &&
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes) ==
          cudaSuccess) {
    return true;
  }
  (void)cudaGetLastError();
  return false;
}

// Launches softmax_smem_kernel if the rows qualify (unit stride, 16-byte aligned, at least
// kSmemMinBytes, fitting the device's shared memory); false otherwise.
template <typename T>
bool softmax_smem(int device, T* out, const T* x, long long B, long long D, long long s0,
                  bool vec) {
  const unsigned long long bytes = (unsigned long long)D * sizeof(T);
  if (!vec || bytes < kSmemMinBytes) return false;
  int per_sm = 0;
  if (cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device) !=
          cudaSuccess ||
      !allow_dynamic_smem(softmax_smem_kernel<T>, device, bytes)) {
    (void)cudaGetLastError();
    return false;
  }
  const int per_block = (int)bytes + 1024;  // and the static shared memory
  const int blocks_per_sm = per_sm / per_block < 1 ? 1 : per_sm / per_block;
  const unsigned grid = grid_for(device, B * kSmemThreads, kSmemThreads, blocks_per_sm);
  softmax_smem_kernel<T><<<grid, kSmemThreads, (size_t)bytes, stream()>>>(out, x, B, (int)D, s0);
  return true;
}

// A block per row for rows too long for registers. With Cache, the row (its exponentials after
// pass 2) is kept in dynamic shared memory, so x is read from global memory once; each thread only
// touches its own elements there, so no barrier is needed besides those of the reductions.
constexpr int kRowThreads = 1024;

template <typename T, bool Cache>
__global__ void __launch_bounds__(kRowThreads)
    softmax_block_kernel(T* __restrict__ out, const T* __restrict__ x, long long B, long long D,
                         long long s0, long long s1) {
  // As in softmax_smem_kernel, the 16-bit types cache their inputs, not exponentials.
  using W = wide_t<T>;
  constexpr bool kKeepExp = std::is_same_v<W, T>;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* cache = reinterpret_cast<T*>(smem_raw);
  __shared__ double sd[33];
  __shared__ W st[33];
  for (long long row = blockIdx.x; row < B; row += gridDim.x) {
    const T* xr = x + row * s0;
    W m = W(-INFINITY);
#pragma unroll 4
    for (long long j = threadIdx.x; j < D; j += blockDim.x) {
      const T v = xr[j * s1];
      if (Cache) cache[j] = v;
      m = fmax(m, to_wide(v));
    }
    m = block_reduce<W, true>(m, st);
    double sum = 0;
    for (long long j = threadIdx.x; j < D; j += blockDim.x) {
      const W e = ex(to_wide(Cache ? cache[j] : xr[j * s1]) - m);
      if (Cache && kKeepExp) cache[j] = e;
      sum += double(e);
    }
    sum = block_reduce<double, false>(sum, sd);
    const W inv = W(1.0 / sum);
    T* orow = out + row * D;
    for (long long j = threadIdx.x; j < D; j += blockDim.x) {
      const W e = Cache && kKeepExp ? W(to_wide(cache[j]))
                                    : ex(to_wide(Cache ? cache[j] : xr[j * s1]) - m);
      orow[j] = from_wide<T>(e * inv);
    }
  }
}

template <typename T, bool Cache>
__global__ void __launch_bounds__(kRowThreads)
    softmax_bwd_block_kernel(T* __restrict__ out, const T* __restrict__ g, long long gs0,
                             long long gs1, const T* __restrict__ y, long long ys0, long long ys1,
                             long long B, long long D) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* gc = reinterpret_cast<T*>(smem_raw);
  T* yc = gc + D;
  __shared__ double sd[33];
  for (long long row = blockIdx.x; row < B; row += gridDim.x) {
    const T* gr = g + row * gs0;
    const T* yr = y + row * ys0;
    double dot = 0;
    for (long long j = threadIdx.x; j < D; j += blockDim.x) {
      const T gv = gr[j * gs1], yv = yr[j * ys1];
      if (Cache) {
        gc[j] = gv;
        yc[j] = yv;
      }
      dot += double(to_wide(gv)) * double(to_wide(yv));
    }
    dot = block_reduce<double, false>(dot, sd);
    T* orow = out + row * D;
    for (long long j = threadIdx.x; j < D; j += blockDim.x) {
      const T gv = Cache ? gc[j] : gr[j * gs1];
      const T yv = Cache ? yc[j] : yr[j * ys1];
      orow[j] = from_wide<T>(double(to_wide(yv)) * (double(to_wide(gv)) - dot));
    }
  }
}

// Launches a block-per-row kernel, with the row cached in shared memory when `bytes` fit (raising
// the kernel's dynamic shared-memory limit past 48 KiB when needed).
template <typename Kernel, typename... Args>
cudaError_t launch_rows(Kernel cached, Kernel uncached, int device, long long B,
                        unsigned long long bytes, Args... args) {
  const unsigned grid = grid_for(device, B * kRowThreads, kRowThreads, 2048 / kRowThreads);
  if (allow_dynamic_smem(cached, device, bytes)) {
    cached<<<grid, kRowThreads, (size_t)bytes, stream()>>>(args...);
  } else {
    uncached<<<grid, kRowThreads, 0, stream()>>>(args...);
  }
  return launched();
}

}  // namespace
}  // namespace opscuda

#endif  // RULES_CUDA_GO_OPS_CUDA_SOFTMAX_LONG_CUH_
