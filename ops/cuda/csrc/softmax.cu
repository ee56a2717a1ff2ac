// RowSoftmax and RowSoftmaxBackward of ops/cuda: rows held in registers by a warp or a block; a
// block per row for longer rows.
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#include "ops/cuda/csrc/common.cuh"
#include "ops/cuda/csrc/opscuda.h"

namespace opscuda {
namespace {

// ---------------------------------------------------------------------------------------------
// RowSoftmax and its backward. Rows of up to kRegMaxBytes hold the row in registers: a group of G
// threads (a warp, or the whole block) owns a row, and thread r of the group holds the elements
// (p*G + r)*N + k for p < VPT/N, k < N, so every load instruction of the group reads consecutive
// memory. N = 16 / sizeof(T) (one 16-byte load) when the rows are unit-stride and 16-byte aligned,
// 1 otherwise; all of a thread's loads are issued before the first use. A warp that owns short rows
// takes ROWS of them at once, for more loads in flight. Longer rows: a block per row with the row
// cached in shared memory when it fits (else three passes over it in global memory).
// Forward: values stay in the input type (expf for float32); a thread adds its exponentials
// pairwise in the input type and the group adds those sums in double. Backward: in double.

// A row kernel's shape: G threads per row, VPT values per thread, ROWS rows per warp (G == 32).
template <int G_, int VPT_, int ROWS_>
struct RowCfg {
  static constexpr int G = G_, VPT = VPT_, ROWS = ROWS_;
};

constexpr int kWarpBlock = 128;  // threads per block of the warp-per-row kernels

template <typename T, int VPT>
__host__ __device__ constexpr int row_pack() {
  return VPT < 16 / (int)sizeof(T) ? VPT : 16 / (int)sizeof(T);
}

// The elements of one row that thread `rank` of a G-thread group holds (see above); `fill` past D.
template <typename T, int G, int VPT, bool Vec>
__device__ __forceinline__ void load_row(T (&v)[VPT], const T* __restrict__ row, long long s1,
                                         int D, int rank, T fill) {
  constexpr int N = Vec ? row_pack<T, VPT>() : 1;
#pragma unroll
  for (int p = 0; p < VPT / N; p++) {
    const int j = (p * G + rank) * N;
    if constexpr (Vec) {
      Pack<T, N> q;
      if (j < D) {
        q = *reinterpret_cast<const Pack<T, N>*>(row + j);
      } else {
#pragma unroll
        for (int k = 0; k < N; k++) q.v[k] = fill;
      }
#pragma unroll
      for (int k = 0; k < N; k++) v[p * N + k] = q.v[k];
    } else {
      v[p] = j < D ? row[(long long)j * s1] : fill;
    }
  }
}

// Stores the elements of load_row into a contiguous row.
template <typename T, int G, int VPT, bool Vec>
__device__ __forceinline__ void store_row(T* __restrict__ row, const T (&v)[VPT], int D, int rank) {
  constexpr int N = Vec ? row_pack<T, VPT>() : 1;
#pragma unroll
  for (int p = 0; p < VPT / N; p++) {
    const int j = (p * G + rank) * N;
    if constexpr (Vec) {
      if (j < D) {
        Pack<T, N> q;
#pragma unroll
        for (int k = 0; k < N; k++) q.v[k] = v[p * N + k];
        *reinterpret_cast<Pack<T, N>*>(row + j) = q;
      }
    } else if (j < D) {
      row[j] = v[p];
    }
  }
}

// Sum or max over a group of G threads (a warp, or the whole block), returned to every thread.
template <int G, bool Max, typename T>
__device__ __forceinline__ T group_reduce(T v, T* smem) {
  if constexpr (G == 32) {
    return Max ? warp_max(v) : warp_sum(v);
  } else {
    return block_reduce<T, Max>(v, smem);
  }
}

// Pairwise sum of v (VPT a power of two).
template <typename T, int VPT>
__device__ __forceinline__ T tree_sum(const T (&v)[VPT]) {
  T a[VPT];
#pragma unroll
  for (int k = 0; k < VPT; k++) a[k] = v[k];
#pragma unroll
  for (int w = VPT / 2; w > 0; w /= 2) {
#pragma unroll
    for (int k = 0; k < w; k++) a[k] += a[k + w];
  }
  return a[0];
}

// The first row of the calling group and the number of groups of the grid.
template <int G>
__device__ __forceinline__ void row_groups(long long* first, long long* count) {
  if constexpr (G == 32) {
    *first = (long long)blockIdx.x * (kWarpBlock / 32) + (threadIdx.x >> 5);
    *count = (long long)gridDim.x * (kWarpBlock / 32);
  } else {
    *first = blockIdx.x;
    *count = gridDim.x;
  }
}

__device__ __forceinline__ float ex(float v) { return expf(v); }
__device__ __forceinline__ double ex(double v) { return exp(v); }

// Blocks per SM that the row kernels' register budget allows for.
constexpr int row_min_blocks(int G) { return G == 512 ? 2 : 1; }

template <typename T, int G, int VPT, int ROWS, bool Vec>
__global__ void __launch_bounds__(G == 32 ? kWarpBlock : G, row_min_blocks(G))
    softmax_rows_kernel(T* __restrict__ out, const T* __restrict__ x, long long B, int D,
                        long long s0, long long s1) {
  __shared__ T st[G == 32 ? 1 : 33];
  __shared__ double sd[G == 32 ? 1 : 33];
  const int rank = G == 32 ? (threadIdx.x & 31) : threadIdx.x;
  long long first, groups;
  row_groups<G>(&first, &groups);
  for (long long r0 = first * ROWS; r0 < B; r0 += groups * ROWS) {
    T v[ROWS][VPT];
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      const long long row = r0 + r < B ? r0 + r : r0;  // a spare row repeats the first
      load_row<T, G, VPT, Vec>(v[r], x + row * s0, s1, D, rank, T(-INFINITY));
    }
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      T m = v[r][0];
#pragma unroll
      for (int k = 1; k < VPT; k++) m = fmax(m, v[r][k]);
      m = group_reduce<G, true>(m, st);
#pragma unroll
      for (int k = 0; k < VPT; k++) v[r][k] = ex(v[r][k] - m);  // 0 past D
      const double sum = group_reduce<G, false>(double(tree_sum(v[r])), sd);
      const T inv = T(1.0 / sum);
#pragma unroll
      for (int k = 0; k < VPT; k++) v[r][k] *= inv;
      if (r0 + r < B) store_row<T, G, VPT, Vec>(out + (r0 + r) * D, v[r], D, rank);
    }
  }
}

// out = y * (g - dot), dot = rowsum(g*y), all in double.
template <typename T, int G, int VPT, int ROWS, bool Vec>
__global__ void __launch_bounds__(G == 32 ? kWarpBlock : G, row_min_blocks(G))
    softmax_bwd_rows_kernel(T* __restrict__ out, const T* __restrict__ g, long long gs0,
                            long long gs1, const T* __restrict__ y, long long ys0, long long ys1,
                            long long B, int D) {
  __shared__ double sd[G == 32 ? 1 : 33];
  const int rank = G == 32 ? (threadIdx.x & 31) : threadIdx.x;
  long long first, groups;
  row_groups<G>(&first, &groups);
  for (long long r0 = first * ROWS; r0 < B; r0 += groups * ROWS) {
    T gv[ROWS][VPT], yv[ROWS][VPT];
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      const long long row = r0 + r < B ? r0 + r : r0;
      load_row<T, G, VPT, Vec>(gv[r], g + row * gs0, gs1, D, rank, T(0));
      load_row<T, G, VPT, Vec>(yv[r], y + row * ys0, ys1, D, rank, T(0));
    }
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      double dot = 0;
#pragma unroll
      for (int k = 0; k < VPT; k++) dot += double(gv[r][k]) * double(yv[r][k]);
      dot = group_reduce<G, false>(dot, sd);
#pragma unroll
      for (int k = 0; k < VPT; k++) gv[r][k] = T(double(yv[r][k]) * (double(gv[r][k]) - dot));
      if (r0 + r < B) store_row<T, G, VPT, Vec>(out + (r0 + r) * D, gv[r], D, rank);
    }
  }
}

// Calls f(RowCfg<...>{}) with the row-kernel shape for rows of D elements of T (Bwd: for the
// backward, which holds two values per element); false if the row is too long for registers.
// Short rows: a warp per row (several rows per warp when they are very short). Longer rows: a
// block per row, sized so that two blocks fit on an SM and the compiler's 64-register budget at
// 512 or 1024 threads holds the values without spilling.
template <typename T, bool Bwd, typename F>
bool with_row_cfg(long long D, F f) {
  constexpr bool F32 = sizeof(T) == 4;
  if (D <= 32) {
    f(RowCfg<32, 1, 4>{});
  } else if (D <= 64) {
    f(RowCfg<32, 2, 4>{});
  } else if (D <= 128) {
    f(RowCfg<32, 4, 2>{});
  } else if (D <= 256) {
    f(RowCfg<32, 8, 1>{});
  } else if (F32 && D <= 512) {
    if constexpr (F32) f(RowCfg<32, 16, 1>{});
  } else if (F32 && !Bwd && D <= 1024) {
    if constexpr (F32 && !Bwd) f(RowCfg<32, 32, 1>{});
  } else if (D <= 128 * 8) {
    f(RowCfg<128, 8, 1>{});
  } else if (D <= 256 * 8) {
    f(RowCfg<256, 8, 1>{});
  } else if (D <= 512 * 8) {
    f(RowCfg<512, 8, 1>{});
  } else if (F32 && D <= 512 * 16) {
    if constexpr (F32) f(RowCfg<512, 16, 1>{});
  } else if (F32 && !Bwd && D <= 512 * 32) {
    if constexpr (F32 && !Bwd) f(RowCfg<512, 32, 1>{});
  } else {
    return false;
  }
  return true;
}

// Blocks and threads of a row kernel over B rows.
template <typename Cfg>
void row_launch_dims(long long B, unsigned* grid, unsigned* threads) {
  const long long per_block = Cfg::G == 32 ? (kWarpBlock / 32) * Cfg::ROWS : 1;
  const long long blocks = (B + per_block - 1) / per_block;
  *grid = (unsigned)(blocks < 0x7fffffffLL ? blocks : 0x7fffffffLL);
  *threads = Cfg::G == 32 ? kWarpBlock : Cfg::G;
}

// Whether rows of D elements at p (row stride s0, element stride s1) can be read with 16-byte
// loads.
template <typename T>
bool rows_vectorizable(const void* p, long long D, long long s0, long long s1) {
  constexpr long long N = 16 / sizeof(T);
  return s1 == 1 && D % N == 0 && s0 % N == 0 && ((uintptr_t)p & 15) == 0;
}

// Long unit-stride rows (more than kSmemMinBytes): a block of kSmemThreads per row, the row copied
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

template <typename T>
__global__ void __launch_bounds__(kSmemThreads, 3)
    softmax_smem_kernel(T* __restrict__ out, const T* __restrict__ x, long long B, int D,
                        long long s0) {
  constexpr int N = 16 / sizeof(T);
  using P = Pack<T, N>;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  P* rs = reinterpret_cast<P*>(smem_raw);
  __shared__ T st[33];
  __shared__ double sd[33];
  const int C = D / N;
  for (long long row = blockIdx.x; row < B; row += gridDim.x) {
    const P* xr = reinterpret_cast<const P*>(x + row * s0);
    for (int c = threadIdx.x; c < C; c += kSmemThreads) copy16_async(&rs[c], &xr[c]);
    copy16_wait();
    T m = T(-INFINITY);
    for (int c = threadIdx.x; c < C; c += kSmemThreads) {
      const P p = rs[c];
#pragma unroll
      for (int k = 0; k < N; k++) m = fmax(m, p.v[k]);
    }
    m = block_reduce<T, true>(m, st);
    double acc = 0;
    for (int c = threadIdx.x; c < C; c += kSmemThreads) {
      P p = rs[c];
#pragma unroll
      for (int k = 0; k < N; k++) p.v[k] = ex(p.v[k] - m);
      rs[c] = p;
      acc += double(tree_sum(p.v));
    }
    acc = block_reduce<double, false>(acc, sd);
    const T inv = T(1.0 / acc);
    P* orow = reinterpret_cast<P*>(out + row * D);
    for (int c = threadIdx.x; c < C; c += kSmemThreads) {
      P p = rs[c];
#pragma unroll
      for (int k = 0; k < N; k++) p.v[k] *= inv;
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

// Launches softmax_smem_kernel if the rows qualify (unit stride, 16-byte aligned, longer than
// kSmemMinBytes, fitting the device's shared memory); false otherwise.
template <typename T>
bool softmax_smem(int device, T* out, const T* x, long long B, long long D, long long s0,
                  bool vec) {
  const unsigned long long bytes = (unsigned long long)D * sizeof(T);
  if (!vec || bytes <= kSmemMinBytes) return false;
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
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* cache = reinterpret_cast<T*>(smem_raw);
  __shared__ double sd[33];
  __shared__ T st[33];
  for (long long row = blockIdx.x; row < B; row += gridDim.x) {
    const T* xr = x + row * s0;
    T m = T(-INFINITY);
#pragma unroll 4
    for (long long j = threadIdx.x; j < D; j += blockDim.x) {
      const T v = xr[j * s1];
      if (Cache) cache[j] = v;
      m = fmax(m, v);
    }
    m = block_reduce<T, true>(m, st);
    double sum = 0;
    for (long long j = threadIdx.x; j < D; j += blockDim.x) {
      const T e = ex((Cache ? cache[j] : xr[j * s1]) - m);
      if (Cache) cache[j] = e;
      sum += double(e);
    }
    sum = block_reduce<double, false>(sum, sd);
    const T inv = T(1.0 / sum);
    T* orow = out + row * D;
    for (long long j = threadIdx.x; j < D; j += blockDim.x) {
      const T e = Cache ? cache[j] : ex(xr[j * s1] - m);
      orow[j] = e * inv;
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
      dot += double(gv) * double(yv);
    }
    dot = block_reduce<double, false>(dot, sd);
    T* orow = out + row * D;
    for (long long j = threadIdx.x; j < D; j += blockDim.x) {
      const T gv = Cache ? gc[j] : gr[j * gs1];
      const T yv = Cache ? yc[j] : yr[j * ys1];
      orow[j] = T(double(yv) * (double(gv) - dot));
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

template <typename T>
cudaError_t softmax_typed(int device, T* out, const T* x, long long B, long long D, long long s0,
                          long long s1) {
  if (B <= 0 || D <= 0) return cudaSuccess;
  const bool vec = rows_vectorizable<T>(x, D, s0, s1) && rows_vectorizable<T>(out, D, D, 1);
  if (softmax_smem(device, out, x, B, D, s0, vec)) return launched();
  const bool in_registers = with_row_cfg<T, false>(D, [&](auto cfg) {
    using Cfg = decltype(cfg);
    unsigned grid, threads;
    row_launch_dims<Cfg>(B, &grid, &threads);
    if (vec) {
      softmax_rows_kernel<T, Cfg::G, Cfg::VPT, Cfg::ROWS, true>
          <<<grid, threads, 0, stream()>>>(out, x, B, (int)D, s0, s1);
    } else {
      softmax_rows_kernel<T, Cfg::G, Cfg::VPT, Cfg::ROWS, false>
          <<<grid, threads, 0, stream()>>>(out, x, B, (int)D, s0, s1);
    }
  });
  if (in_registers) return launched();
  return launch_rows(softmax_block_kernel<T, true>, softmax_block_kernel<T, false>, device, B,
                     (unsigned long long)D * sizeof(T), out, x, B, D, s0, s1);
}

template <typename T>
cudaError_t softmax_bwd_typed(int device, T* out, const T* g, long long gs0, long long gs1,
                              const T* y, long long ys0, long long ys1, long long B,
                              long long D) {
  if (B <= 0 || D <= 0) return cudaSuccess;
  const bool vec = rows_vectorizable<T>(g, D, gs0, gs1) && rows_vectorizable<T>(y, D, ys0, ys1) &&
                   rows_vectorizable<T>(out, D, D, 1);
  const bool in_registers = with_row_cfg<T, true>(D, [&](auto cfg) {
    using Cfg = decltype(cfg);
    unsigned grid, threads;
    row_launch_dims<Cfg>(B, &grid, &threads);
    if (vec) {
      softmax_bwd_rows_kernel<T, Cfg::G, Cfg::VPT, Cfg::ROWS, true>
          <<<grid, threads, 0, stream()>>>(out, g, gs0, gs1, y, ys0, ys1, B, (int)D);
    } else {
      softmax_bwd_rows_kernel<T, Cfg::G, Cfg::VPT, Cfg::ROWS, false>
          <<<grid, threads, 0, stream()>>>(out, g, gs0, gs1, y, ys0, ys1, B, (int)D);
    }
  });
  if (in_registers) return launched();
  return launch_rows(softmax_bwd_block_kernel<T, true>, softmax_bwd_block_kernel<T, false>, device,
                     B, 2ull * D * sizeof(T), out, g, gs0, gs1, y, ys0, ys1, B, D);
}

}  // namespace
}  // namespace opscuda

using namespace opscuda;

extern "C" int opscuda_row_softmax(opscuda_stream st, int device, int dtype, opscuda_dptr out,
                                   opscuda_dptr x, long long B, long long D, long long s0,
                                   long long s1) {
  cudaError_t err = enter(device, st);
  if (err != cudaSuccess) return (int)err;
  switch (dtype) {
    case OPSCUDA_FLOAT32:
      return (int)softmax_typed<float>(device, mptr<float>(out), cptr<float>(x), B, D, s0, s1);
    case OPSCUDA_FLOAT64:
      return (int)softmax_typed<double>(device, mptr<double>(out), cptr<double>(x), B, D, s0,
                                        s1);
  }
  return (int)cudaErrorInvalidValue;
}

extern "C" int opscuda_row_softmax_backward(opscuda_stream st, int device, int dtype,
                                            opscuda_dptr out, opscuda_dptr g, long long gs0,
                                            long long gs1, opscuda_dptr y, long long ys0,
                                            long long ys1, long long B, long long D) {
  cudaError_t err = enter(device, st);
  if (err != cudaSuccess) return (int)err;
  switch (dtype) {
    case OPSCUDA_FLOAT32:
      return (int)softmax_bwd_typed<float>(device, mptr<float>(out), cptr<float>(g), gs0, gs1,
                                           cptr<float>(y), ys0, ys1, B, D);
    case OPSCUDA_FLOAT64:
      return (int)softmax_bwd_typed<double>(device, mptr<double>(out), cptr<double>(g), gs0, gs1,
                                            cptr<double>(y), ys0, ys1, B, D);
  }
  return (int)cudaErrorInvalidValue;
}
