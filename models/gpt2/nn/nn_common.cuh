// Helpers of package nn's kernels: typed loads and stores (bfloat16 computed in float), the
// accumulation type, block reductions and the dtype dispatch.
#ifndef RULES_CUDA_GO_MODELS_GPT2_NN_NN_COMMON_CUH_
#define RULES_CUDA_GO_MODELS_GPT2_NN_NN_COMMON_CUH_

#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#include "models/gpt2/nn/nn.h"
#include "ops/cuda/csrc/opscuda.h"

namespace nn {

// The type a kernel computes in for storage type T: double for double, float otherwise.
template <typename T>
struct Acc {
  using type = float;
};
template <>
struct Acc<double> {
  using type = double;
};
template <typename T>
using acc_t = typename Acc<T>::type;

__device__ __forceinline__ float load(const float* p, long long i) { return p[i]; }
__device__ __forceinline__ double load(const double* p, long long i) { return p[i]; }
__device__ __forceinline__ float load(const __nv_bfloat16* p, long long i) {
  return __bfloat162float(p[i]);
}
__device__ __forceinline__ void store(float* p, long long i, float v) { p[i] = v; }
__device__ __forceinline__ void store(double* p, long long i, double v) { p[i] = v; }
__device__ __forceinline__ void store(__nv_bfloat16* p, long long i, float v) {
  p[i] = __float2bfloat16_rn(v);
}

__device__ __forceinline__ float dexp(float x) { return expf(x); }
__device__ __forceinline__ double dexp(double x) { return exp(x); }
__device__ __forceinline__ float dlog(float x) { return logf(x); }
__device__ __forceinline__ double dlog(double x) { return log(x); }
__device__ __forceinline__ float dsqrt(float x) { return sqrtf(x); }
__device__ __forceinline__ double dsqrt(double x) { return sqrt(x); }
__device__ __forceinline__ float dtanh(float x) { return tanhf(x); }
__device__ __forceinline__ double dtanh(double x) { return tanh(x); }

template <typename A>
__device__ __forceinline__ A warp_sum(A v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

template <typename A>
__device__ __forceinline__ A warp_max(A v) {
  for (int o = 16; o > 0; o >>= 1) v = fmax(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

// The sum (max) of v over the block (blockDim.x a multiple of 32, at most 1024), returned to
// every thread; shared holds 32 values. The order is fixed, so results are deterministic.
template <typename A>
__device__ A block_sum(A v, A* shared) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  v = warp_sum(v);
  __syncthreads();  // shared may still be read by a previous reduction
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  v = lane < warps ? shared[lane] : A(0);
  return warp_sum(v);
}

template <typename A>
__device__ A block_max(A v, A* shared) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  v = warp_max(v);
  __syncthreads();
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  v = lane < warps ? shared[lane] : A(-INFINITY);
  return warp_max(v);
}

inline cudaStream_t as_stream(nn_ptr s) {
  return s == 0 ? cudaStreamLegacy : reinterpret_cast<cudaStream_t>((uintptr_t)s);
}

// Grid size for n items of one thread each, capped (the kernels loop with a grid stride).
inline unsigned blocks_for(long long n, int threads) {
  long long b = (n + threads - 1) / threads;
  if (b < 1) b = 1;
  return b > 65535 * 32 ? 65535 * 32 : (unsigned)b;
}

// Threads per block of the row and elementwise kernels.
constexpr int kThreads = 256;

// Rows per grid: one block per row up to this many, the kernels loop past it.
constexpr long long kMaxRowBlocks = 1 << 20;
inline unsigned row_blocks(long long rows) {
  return rows < 1 ? 1u : (unsigned)(rows < kMaxRowBlocks ? rows : kMaxRowBlocks);
}

// Column sums (layer norm's weight and bias gradients, Linear's bias gradient), in an unnamed
// namespace: each .cu file that launches it has its own copy.
namespace {

// Column sums over N rows, 32 columns per block of 32x16 threads: dw[c] = sum g*xhat (when
// stats is not null), db[c] = sum g.
constexpr int kColX = 32, kColY = 16;
template <typename T>
__global__ void column_sums_kernel(T* dw, T* db, const T* g, const T* x, const acc_t<T>* stats,
                                   long long N, long long C) {
  using A = acc_t<T>;
  __shared__ A sw[kColY][kColX + 1], sb[kColY][kColX + 1];
  for (long long c0 = (long long)blockIdx.x * kColX; c0 < C; c0 += (long long)gridDim.x * kColX) {
    const long long c = c0 + threadIdx.x;
    A aw = 0, ab = 0;
    if (c < C) {
      for (long long r = threadIdx.y; r < N; r += kColY) {
        const A gv = load(g, r * C + c);
        ab += gv;
        if (stats != nullptr) aw += gv * (A(load(x, r * C + c)) - stats[2 * r]) * stats[2 * r + 1];
      }
    }
    sw[threadIdx.y][threadIdx.x] = aw;
    sb[threadIdx.y][threadIdx.x] = ab;
    __syncthreads();
    if (threadIdx.y == 0 && c < C) {
      A tw = 0, tb = 0;
      for (int y = 0; y < kColY; y++) {
        tw += sw[y][threadIdx.x];
        tb += sb[y][threadIdx.x];
      }
      if (dw != nullptr) store(dw, c, tw);
      store(db, c, tb);
    }
    __syncthreads();
  }
}

inline unsigned column_blocks(long long C) {
  long long b = (C + kColX - 1) / kColX;
  if (b < 1) b = 1;
  return b > 65535 ? 65535u : (unsigned)b;
}

}  // namespace

}  // namespace nn

// Runs LAUNCH(T) for the floating-point dtype code; other codes return cudaErrorInvalidValue.
#define NN_DISPATCH(dtype, LAUNCH)           \
  switch (dtype) {                           \
    case OPSCUDA_FLOAT32:                    \
      LAUNCH(float);                         \
      break;                                 \
    case OPSCUDA_FLOAT64:                    \
      LAUNCH(double);                        \
      break;                                 \
    case OPSCUDA_BFLOAT16:                   \
      LAUNCH(__nv_bfloat16);                 \
      break;                                 \
    default:                                 \
      return (int)cudaErrorInvalidValue;     \
  }

#endif  // RULES_CUDA_GO_MODELS_GPT2_NN_NN_COMMON_CUH_

// Makes device current on the calling thread and clears a stale launch error an earlier call on
// this thread may have left; returns from the entry point on failure.
#define NN_ENTER(device)                                \
  do {                                                  \
    cudaError_t e_ = cudaSetDevice(device);             \
    if (e_ != cudaSuccess) return (int)e_;              \
    (void)cudaGetLastError();                           \
  } while (0)
