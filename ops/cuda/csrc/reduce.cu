// Reductions of ops/cuda: Norm (two-pass, double accumulation, deterministic), RowSoftmax and
// RowSoftmaxBackward (a warp per row for short rows, a block per row otherwise).
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#include "ops/cuda/csrc/common.cuh"
#include "ops/cuda/csrc/opscuda.h"

namespace opscuda {
namespace {

// ---------------------------------------------------------------------------------------------
// Norm. Pass 1: a grid of at most kNormBlocksPerSM blocks per SM; every thread sums squares in
// double over a grid-stride loop (16-byte loads when contiguous and aligned), each block reduces
// with warp shuffles and shared memory and writes one partial sum. Pass 2: one block adds the
// partial sums in a fixed order and writes the square root. The grid depends only on the
// device's SM count, so results are reproducible on a device. A grid of one block writes the
// result directly.

constexpr int kNormThreads = 256;
constexpr int kNormBlocksPerSM = 4;
constexpr int kNormFinalThreads = 1024;

struct Strides1 {
  int ndim;
  long long sizes[kMaxDims];
  long long strides[kMaxDims];
};

// Mode of the pass-1 kernel.
enum { kVector = 0, kContiguous = 1, kStrided = 2 };

template <typename T>
__device__ void norm_block_result(double acc, double* partial, T* out) {
  __shared__ double smem[33];
  double s = block_reduce<double, false>(acc, smem);
  if (threadIdx.x == 0) {
    if (gridDim.x == 1) {
      out[0] = T(sqrt(s));
    } else {
      partial[blockIdx.x] = s;
    }
  }
}

template <typename T, int Mode, typename I>
__global__ void __launch_bounds__(kNormThreads)
    norm_partial_kernel(const T* __restrict__ x, Strides1 s, long long n, double* partial,
                        T* out) {
  double acc0 = 0, acc1 = 0;
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long nthreads = (long long)gridDim.x * blockDim.x;
  if (Mode == kVector) {
    constexpr int N = 16 / sizeof(T);
    using P = Pack<T, N>;
    const long long nvec = n / N;
    const P* xv = reinterpret_cast<const P*>(x);
    long long i = tid;
    for (; i + nthreads < nvec; i += 2 * nthreads) {  // two loads in flight
      P a = xv[i], b = xv[i + nthreads];
#pragma unroll
      for (int j = 0; j < N; j++) {
        double u = double(a.v[j]), w = double(b.v[j]);
        acc0 += u * u;
        acc1 += w * w;
      }
    }
    if (i < nvec) {
      P a = xv[i];
#pragma unroll
      for (int j = 0; j < N; j++) {
        double u = double(a.v[j]);
        acc0 += u * u;
      }
    }
    const long long t = nvec * N + tid;
    if (t < n) {
      double u = double(x[t]);
      acc1 += u * u;
    }
  } else if (Mode == kContiguous) {
    for (long long i = tid; i < n; i += nthreads) {
      double u = double(x[i]);
      acc0 += u * u;
    }
  } else {
    for (I i = (I)tid; i < (I)n; i += (I)nthreads) {
      I rem = i, off = 0;
#pragma unroll
      for (int d = kMaxDims - 1; d >= 0; d--) {
        if (d < s.ndim) {
          const I size = (I)s.sizes[d];
          off += (rem % size) * (I)s.strides[d];
          rem /= size;
        }
      }
      double u = double(x[off]);
      acc0 += u * u;
    }
  }
  norm_block_result<T>(acc0 + acc1, partial, out);
}

template <typename T>
__global__ void __launch_bounds__(kNormFinalThreads)
    norm_final_kernel(const double* __restrict__ partial, int count, T* out) {
  __shared__ double smem[33];
  double acc = 0;
  for (int i = threadIdx.x; i < count; i += blockDim.x) acc += partial[i];
  double s = block_reduce<double, false>(acc, smem);
  if (threadIdx.x == 0) out[0] = T(sqrt(s));
}

template <typename T>
cudaError_t norm_typed(const opscuda_ew* e) {
  const T* x = cptr<T>(e->in[0]);
  T* out = mptr<T>(e->out);
  const long long n = e->n;
  if (n <= 0) return cudaMemsetAsync(out, 0, sizeof(T), stream());
  Strides1 s;
  s.ndim = e->ndim;
  unsigned long long ext = 1;
  for (int d = 0; d < kMaxDims; d++) {
    s.sizes[d] = d < e->ndim ? e->sizes[d] : 1;
    s.strides[d] = d < e->ndim ? e->strides[0][d] : 0;
    ext += (unsigned long long)(s.sizes[d] - 1) * (unsigned long long)s.strides[d];
  }
  const bool contig = e->ndim == 1 && e->strides[0][0] == 1;
  const bool vec = contig && (e->in[0] & 15) == 0;
  constexpr int N = 16 / sizeof(T);
  const long long items = vec ? (n / N + 1) / 2 + 1 : n;
  const unsigned grid = grid_for(e->device, items, kNormThreads, kNormBlocksPerSM);
  double* partial = nullptr;
  if (grid > 1) {
    cudaError_t err = scratch_alloc(e->device, grid * sizeof(double), (void**)&partial);
    if (err != cudaSuccess) return err;
  }
  if (vec) {
    norm_partial_kernel<T, kVector, uint64_t>
        <<<grid, kNormThreads, 0, stream()>>>(x, s, n, partial, out);
  } else if (contig) {
    norm_partial_kernel<T, kContiguous, uint64_t>
        <<<grid, kNormThreads, 0, stream()>>>(x, s, n, partial, out);
  } else if (ext <= 0x7fffffffull && (unsigned long long)n <= 0x7fffffffull) {
    norm_partial_kernel<T, kStrided, uint32_t>
        <<<grid, kNormThreads, 0, stream()>>>(x, s, n, partial, out);
  } else {
    norm_partial_kernel<T, kStrided, uint64_t>
        <<<grid, kNormThreads, 0, stream()>>>(x, s, n, partial, out);
  }
  cudaError_t err = launched();
  if (err == cudaSuccess && grid > 1) {
    norm_final_kernel<T><<<1, kNormFinalThreads, 0, stream()>>>(partial, (int)grid, out);
    err = launched();
  }
  if (partial != nullptr) {
    cudaError_t ferr = scratch_free(e->device, partial);
    if (err == cudaSuccess) err = ferr;
  }
  return err;
}

// ---------------------------------------------------------------------------------------------
// RowSoftmax. Values stay in the input type (expf for float32), sums are in double. Rows of at
// most warp_max_d<T>() elements: one warp per row, the row held in registers (VPT values per lane),
// reductions by shuffles. Longer rows: one block per row, the row cached in shared memory when it
// fits (else three passes over it in global memory: max, sum, write). Rows are reached through
// (s0, s1), so transposed and narrowed views need no copy.

constexpr int kWarpThreads = 128;  // 4 rows per block
constexpr int kRowThreads = 512;

__device__ __forceinline__ float ex(float v) { return expf(v); }
__device__ __forceinline__ double ex(double v) { return exp(v); }

template <typename T, int VPT>
__global__ void __launch_bounds__(kWarpThreads)
    softmax_warp_kernel(T* __restrict__ out, const T* __restrict__ x, long long B, int D,
                        long long s0, long long s1) {
  const int lane = threadIdx.x & 31;
  const long long warps = (long long)gridDim.x * (blockDim.x >> 5);
  for (long long row = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); row < B;
       row += warps) {
    const T* xr = x + row * s0;
    T v[VPT];
    T m = T(-INFINITY);
#pragma unroll
    for (int k = 0; k < VPT; k++) {
      const int j = lane + 32 * k;
      v[k] = j < D ? xr[(long long)j * s1] : T(-INFINITY);
      m = fmax(m, v[k]);
    }
    m = warp_max(m);
    double sum = 0;
#pragma unroll
    for (int k = 0; k < VPT; k++) {
      if (lane + 32 * k < D) {
        v[k] = ex(v[k] - m);
        sum += double(v[k]);
      }
    }
    sum = warp_sum(sum);
    const double inv = 1.0 / sum;
    T* orow = out + row * D;
#pragma unroll
    for (int k = 0; k < VPT; k++) {
      const int j = lane + 32 * k;
      if (j < D) orow[j] = T(double(v[k]) * inv);
    }
  }
}

// A block per row. With Cache, the row (its exponentials after pass 2) is kept in dynamic shared
// memory, so x is read from global memory once; each thread only touches its own elements there,
// so no barrier is needed besides those of the reductions.
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
    const double inv = 1.0 / sum;
    T* orow = out + row * D;
    for (long long j = threadIdx.x; j < D; j += blockDim.x) {
      const T e = Cache ? cache[j] : ex(xr[j * s1] - m);
      orow[j] = T(double(e) * inv);
    }
  }
}

// out = y * (g - dot), dot = rowsum(g*y), all in double.
template <typename T, int VPT>
__global__ void __launch_bounds__(kWarpThreads)
    softmax_bwd_warp_kernel(T* __restrict__ out, const T* __restrict__ g, long long gs0,
                            long long gs1, const T* __restrict__ y, long long ys0, long long ys1,
                            long long B, int D) {
  const int lane = threadIdx.x & 31;
  const long long warps = (long long)gridDim.x * (blockDim.x >> 5);
  for (long long row = (long long)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); row < B;
       row += warps) {
    const T* gr = g + row * gs0;
    const T* yr = y + row * ys0;
    T gv[VPT], yv[VPT];
    double dot = 0;
#pragma unroll
    for (int k = 0; k < VPT; k++) {
      const int j = lane + 32 * k;
      gv[k] = j < D ? gr[(long long)j * gs1] : T(0);
      yv[k] = j < D ? yr[(long long)j * ys1] : T(0);
      dot += double(gv[k]) * double(yv[k]);
    }
    dot = warp_sum(dot);
    T* orow = out + row * D;
#pragma unroll
    for (int k = 0; k < VPT; k++) {
      const int j = lane + 32 * k;
      if (j < D) orow[j] = T(double(yv[k]) * (double(gv[k]) - dot));
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

// Threads per block for a block per row of `bytes`: 128 for short rows, else kRowThreads
// (measured on an H200: 1024 float64 per row ran 1.8x faster with 128 threads than as a warp per
// row; 8192 float32 ran 1.4x faster with 512 threads than with 256).
inline int row_threads(unsigned long long bytes) { return bytes <= 8 * 1024 ? 128 : kRowThreads; }

// Launches a block-per-row kernel, with the row cached in shared memory when `bytes` fit (raising
// the kernel's dynamic shared-memory limit past 48 KiB when needed).
template <typename Kernel, typename... Args>
cudaError_t launch_rows(Kernel cached, Kernel uncached, int device, long long B,
                        unsigned long long bytes, Args... args) {
  const int threads = row_threads(bytes);
  const unsigned grid = grid_for(device, B * threads, threads, 2048 / threads);
  int optin = 0;
  if (bytes > 48 * 1024) {
    (void)cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    // Leave room for the static shared memory and two resident blocks per SM.
    if (bytes <= (unsigned long long)optin / 2 &&
        cudaFuncSetAttribute(cached, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes) ==
            cudaSuccess) {
      optin = -1;
    }
    (void)cudaGetLastError();
  }
  if (bytes <= 48 * 1024 || optin == -1) {
    cached<<<grid, threads, (size_t)bytes, stream()>>>(args...);
  } else {
    uncached<<<grid, threads, 0, stream()>>>(args...);
  }
  return launched();
}

// The widest row the warp kernels take: 32 float32 or 16 float64 values per lane (longer float64
// rows run faster with a block per row).
template <typename T>
constexpr long long warp_max_d() {
  return sizeof(T) == 4 ? 1024 : 512;
}

template <typename T, int VPT>
void softmax_warp_launch(T* out, const T* x, long long B, long long D, long long s0, long long s1,
                         unsigned grid) {
  softmax_warp_kernel<T, VPT><<<grid, kWarpThreads, 0, stream()>>>(out, x, B, (int)D, s0, s1);
}

template <typename T>
cudaError_t softmax_typed(int device, T* out, const T* x, long long B, long long D, long long s0,
                          long long s1) {
  if (B <= 0 || D <= 0) return cudaSuccess;
  if (D <= warp_max_d<T>()) {
    const unsigned grid = grid_for(device, B * 32, kWarpThreads, 16);
    if (D <= 32) {
      softmax_warp_launch<T, 1>(out, x, B, D, s0, s1, grid);
    } else if (D <= 64) {
      softmax_warp_launch<T, 2>(out, x, B, D, s0, s1, grid);
    } else if (D <= 128) {
      softmax_warp_launch<T, 4>(out, x, B, D, s0, s1, grid);
    } else if (D <= 256) {
      softmax_warp_launch<T, 8>(out, x, B, D, s0, s1, grid);
    } else if (D <= 512) {
      softmax_warp_launch<T, 16>(out, x, B, D, s0, s1, grid);
    } else {
      softmax_warp_launch<T, 32>(out, x, B, D, s0, s1, grid);
    }
    return launched();
  }
  return launch_rows(softmax_block_kernel<T, true>, softmax_block_kernel<T, false>, device, B,
                     (unsigned long long)D * sizeof(T), out, x, B, D, s0, s1);
}

template <typename T, int VPT>
void softmax_bwd_warp_launch(T* out, const T* g, long long gs0, long long gs1, const T* y,
                             long long ys0, long long ys1, long long B, long long D,
                             unsigned grid) {
  softmax_bwd_warp_kernel<T, VPT>
      <<<grid, kWarpThreads, 0, stream()>>>(out, g, gs0, gs1, y, ys0, ys1, B, (int)D);
}

template <typename T>
cudaError_t softmax_bwd_typed(int device, T* out, const T* g, long long gs0, long long gs1,
                              const T* y, long long ys0, long long ys1, long long B,
                              long long D) {
  if (B <= 0 || D <= 0) return cudaSuccess;
  if (D <= warp_max_d<T>()) {
    const unsigned grid = grid_for(device, B * 32, kWarpThreads, 16);
    if (D <= 32) {
      softmax_bwd_warp_launch<T, 1>(out, g, gs0, gs1, y, ys0, ys1, B, D, grid);
    } else if (D <= 64) {
      softmax_bwd_warp_launch<T, 2>(out, g, gs0, gs1, y, ys0, ys1, B, D, grid);
    } else if (D <= 128) {
      softmax_bwd_warp_launch<T, 4>(out, g, gs0, gs1, y, ys0, ys1, B, D, grid);
    } else if (D <= 256) {
      softmax_bwd_warp_launch<T, 8>(out, g, gs0, gs1, y, ys0, ys1, B, D, grid);
    } else if (D <= 512) {
      softmax_bwd_warp_launch<T, 16>(out, g, gs0, gs1, y, ys0, ys1, B, D, grid);
    } else {
      softmax_bwd_warp_launch<T, 32>(out, g, gs0, gs1, y, ys0, ys1, B, D, grid);
    }
    return launched();
  }
  return launch_rows(softmax_bwd_block_kernel<T, true>, softmax_bwd_block_kernel<T, false>, device,
                     B, 2ull * D * sizeof(T), out, g, gs0, gs1, y, ys0, ys1, B, D);
}

}  // namespace
}  // namespace opscuda

using namespace opscuda;

extern "C" int opscuda_norm(const opscuda_ew* e) {
  if (e->nin != 1 || e->ndim < 1 || e->ndim > kMaxDims) return (int)cudaErrorInvalidValue;
  cudaError_t err = enter(e->device);
  if (err != cudaSuccess) return (int)err;
  switch (e->dtype) {
    case OPSCUDA_FLOAT32:
      return (int)norm_typed<float>(e);
    case OPSCUDA_FLOAT64:
      return (int)norm_typed<double>(e);
  }
  return (int)cudaErrorInvalidValue;
}

extern "C" int opscuda_row_softmax(int device, int dtype, opscuda_dptr out, opscuda_dptr x,
                                   long long B, long long D, long long s0, long long s1) {
  cudaError_t err = enter(device);
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

extern "C" int opscuda_row_softmax_backward(int device, int dtype, opscuda_dptr out,
                                            opscuda_dptr g, long long gs0, long long gs1,
                                            opscuda_dptr y, long long ys0, long long ys1,
                                            long long B, long long D) {
  cudaError_t err = enter(device);
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
