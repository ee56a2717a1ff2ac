// RowSoftmax and its backward with each row held in registers by a warp or a block: the row
// kernels, their shapes (with_row_cfg) and launch sizes. Private to softmax.cu (its one
// translation unit; hence the unnamed namespace).
#ifndef RULES_CUDA_GO_OPS_CUDA_SOFTMAX_ROWS_CUH_
#define RULES_CUDA_GO_OPS_CUDA_SOFTMAX_ROWS_CUH_

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#include "ops/cuda/csrc/common.cuh"

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
// Forward: values stay in the input type (expf for float32; float16 and bfloat16 are widened to
// float on load and rounded to nearest even on store); a thread adds its exponentials pairwise in
// that type and the group adds those sums in double. Backward: in double.

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

// The elements of one row that thread `rank` of a G-thread group holds (see above), widened to the
// compute type C; `fill` past D.
template <typename T, int G, int VPT, bool Vec, typename C>
__device__ __forceinline__ void load_row(C (&v)[VPT], const T* __restrict__ row, long long s1,
                                         int D, int rank, C fill) {
  constexpr int N = Vec ? row_pack<T, VPT>() : 1;
#pragma unroll
  for (int p = 0; p < VPT / N; p++) {
    const int j = (p * G + rank) * N;
    if constexpr (Vec) {
      if (j < D) {
        const Pack<T, N> q = *reinterpret_cast<const Pack<T, N>*>(row + j);
#pragma unroll
        for (int k = 0; k < N; k++) v[p * N + k] = to_wide(q.v[k]);
      } else {
#pragma unroll
        for (int k = 0; k < N; k++) v[p * N + k] = fill;
      }
    } else {
      v[p] = j < D ? C(to_wide(row[(long long)j * s1])) : fill;
    }
  }
}

// Stores the elements of load_row into a contiguous row, rounded to T.
template <typename T, int G, int VPT, bool Vec, typename C>
__device__ __forceinline__ void store_row(T* __restrict__ row, const C (&v)[VPT], int D, int rank) {
  constexpr int N = Vec ? row_pack<T, VPT>() : 1;
#pragma unroll
  for (int p = 0; p < VPT / N; p++) {
    const int j = (p * G + rank) * N;
    if constexpr (Vec) {
      if (j < D) {
        Pack<T, N> q;
#pragma unroll
        for (int k = 0; k < N; k++) q.v[k] = from_wide<T>(v[p * N + k]);
        *reinterpret_cast<Pack<T, N>*>(row + j) = q;
      }
    } else if (j < D) {
      row[j] = from_wide<T>(v[p]);
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
  using C = wide_t<T>;
  __shared__ C st[G == 32 ? 1 : 33];
  __shared__ double sd[G == 32 ? 1 : 33];
  const int rank = G == 32 ? (threadIdx.x & 31) : threadIdx.x;
  long long first, groups;
  row_groups<G>(&first, &groups);
  for (long long r0 = first * ROWS; r0 < B; r0 += groups * ROWS) {
    C v[ROWS][VPT];
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      const long long row = r0 + r < B ? r0 + r : r0;  // a spare row repeats the first
      load_row<T, G, VPT, Vec>(v[r], x + row * s0, s1, D, rank, C(-INFINITY));
    }
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      C m = v[r][0];
#pragma unroll
      for (int k = 1; k < VPT; k++) m = fmax(m, v[r][k]);
      m = group_reduce<G, true>(m, st);
#pragma unroll
      for (int k = 0; k < VPT; k++) v[r][k] = ex(v[r][k] - m);  // 0 past D
      const double sum = group_reduce<G, false>(double(tree_sum(v[r])), sd);
      const C inv = C(1.0 / sum);
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
  using C = wide_t<T>;
  __shared__ double sd[G == 32 ? 1 : 33];
  const int rank = G == 32 ? (threadIdx.x & 31) : threadIdx.x;
  long long first, groups;
  row_groups<G>(&first, &groups);
  for (long long r0 = first * ROWS; r0 < B; r0 += groups * ROWS) {
    C gv[ROWS][VPT], yv[ROWS][VPT];
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      const long long row = r0 + r < B ? r0 + r : r0;
      load_row<T, G, VPT, Vec>(gv[r], g + row * gs0, gs1, D, rank, C(0));
      load_row<T, G, VPT, Vec>(yv[r], y + row * ys0, ys1, D, rank, C(0));
    }
#pragma unroll
    for (int r = 0; r < ROWS; r++) {
      double dot = 0;
#pragma unroll
      for (int k = 0; k < VPT; k++) dot += double(gv[r][k]) * double(yv[r][k]);
      dot = group_reduce<G, false>(dot, sd);
#pragma unroll
      for (int k = 0; k < VPT; k++) gv[r][k] = C(double(yv[r][k]) * (double(gv[r][k]) - dot));
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
  constexpr bool F32 = sizeof(wide_t<T>) == 4;  // registers hold the compute type
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

}  // namespace
}  // namespace opscuda

#endif  // RULES_CUDA_GO_OPS_CUDA_SOFTMAX_ROWS_CUH_
