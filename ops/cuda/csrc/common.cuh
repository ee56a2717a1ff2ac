// Shared helpers of the ops/cuda kernels (private to the cu_library).
#ifndef RULES_CUDA_GO_OPS_CUDA_COMMON_CUH_
#define RULES_CUDA_GO_OPS_CUDA_COMMON_CUH_

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include <type_traits>

#include "ops/cuda/csrc/opscuda.h"

namespace opscuda {

constexpr int kMaxDims = OPSCUDA_MAX_DIMS;

// The cudaStream_t of an opscuda_stream: 0 is the legacy default stream, whatever
// --default-stream this file is compiled with.
inline cudaStream_t as_stream(opscuda_stream s) {
  return s == 0 ? cudaStreamLegacy : reinterpret_cast<cudaStream_t>((uintptr_t)s);
}

// The stream of the entry point running on this thread: every entry point that queues work names
// its stream in enter(), first thing, and everything it launches goes there. (A cgo call runs on
// one OS thread from start to end, so the value cannot leak into another call's work.)
extern thread_local cudaStream_t t_stream;
inline cudaStream_t stream() { return t_stream; }

// Makes device current on the calling thread, makes s the stream of this call (stream()) and
// clears a stale error that an earlier failed call on this thread may have left for
// cudaGetLastError (sticky errors stay and are reported by the next call that fails).
cudaError_t enter(int device, opscuda_stream s = 0);

// Runs the constructor's scope with the calling thread's stream-capture mode relaxed, so that
// cudaMalloc and friends are allowed while some stream is being captured (as PyTorch's allocator
// does); the destructor restores the mode.
class RelaxedCapture {
 public:
  RelaxedCapture() : mode_(cudaStreamCaptureModeRelaxed) {
    (void)cudaThreadExchangeStreamCaptureMode(&mode_);
  }
  ~RelaxedCapture() { (void)cudaThreadExchangeStreamCaptureMode(&mode_); }
  RelaxedCapture(const RelaxedCapture&) = delete;
  RelaxedCapture& operator=(const RelaxedCapture&) = delete;

 private:
  cudaStreamCaptureMode mode_;
};

// Number of multiprocessors of device (cached).
int sm_count(int device);

// Blocks for a grid-stride kernel: enough for `items` work items of `threads` threads each, at
// most blocks_per_sm per multiprocessor; at least 1.
inline unsigned grid_for(int device, long long items, int threads, int blocks_per_sm) {
  long long need = (items + threads - 1) / threads;
  long long cap = (long long)sm_count(device) * blocks_per_sm;
  long long g = need < cap ? need : cap;
  return (unsigned)(g < 1 ? 1 : g);
}

// Frees the scratch memory kept for stream st of device (norm.cu); the stream's work must be
// complete.
void release_stream_scratch(int device, cudaStream_t st);

// Stream-ordered scratch memory (see opscuda_malloc/opscuda_free).
cudaError_t scratch_alloc(int device, size_t bytes, void** p);
cudaError_t scratch_free(int device, void* p);

// Name and description of a code of ours beyond cudaError_t's range (a cuBLAS status or
// OPSCUDA_ERROR_CUBLAS_MISSING; blas.cu), nullptr for any other code.
const char* blas_error_name(int code);
const char* blas_error_string(int code);

// The error of the launch just made (cudaGetLastError).
inline cudaError_t launched() { return cudaGetLastError(); }

template <typename T>
inline const T* cptr(opscuda_dptr p) {
  return reinterpret_cast<const T*>((uintptr_t)p);
}
template <typename T>
inline T* mptr(opscuda_dptr p) {
  return reinterpret_cast<T*>((uintptr_t)p);
}

// ---- The 16-bit element types: __half and __nv_bfloat16 are loaded as float (to_wide), computed
// on in float (or wider) and rounded to nearest even when stored (from_wide).

template <typename T>
inline constexpr bool is_half_v =
    std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;

// The type a kernel computes in for storage type T: float for the 16-bit types, T otherwise.
template <typename T>
using wide_t = std::conditional_t<is_half_v<T>, float, T>;

__device__ __forceinline__ float to_wide(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_wide(__nv_bfloat16 v) { return __bfloat162float(v); }
__device__ __forceinline__ float to_wide(float v) { return v; }
__device__ __forceinline__ double to_wide(double v) { return v; }

// v rounded to storage type T (to nearest even; a double goes through float for the 16-bit types,
// whose precision that second rounding cannot change but in ties far below their ulp).
template <typename T, typename A>
__device__ __forceinline__ T from_wide(A v) {
  if constexpr (std::is_same_v<T, __half>) {
    return __float2half_rn((float)v);
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __float2bfloat16_rn((float)v);
  } else {
    return T(v);
  }
}

// Size in bytes of an element of dtype (an OPSCUDA_* code), 0 if unknown.
inline size_t dtype_size(int dtype) {
  switch (dtype) {
    case OPSCUDA_FLOAT32:
      return 4;
    case OPSCUDA_FLOAT64:
      return 8;
    case OPSCUDA_FLOAT16:
    case OPSCUDA_BFLOAT16:
      return 2;
  }
  return 0;
}

// A 16-byte group of elements, loaded and stored with one vector instruction.
template <typename T, int N>
struct alignas(sizeof(T) * N) Pack {
  T v[N];
};

// Warp reductions over all 32 lanes.
template <typename T>
__device__ __forceinline__ T warp_sum(T v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
template <typename T>
__device__ __forceinline__ T warp_max(T v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v = fmax(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

// Block-wide sum or max (blockDim.x a multiple of 32, at most 1024), returned to every thread.
// smem holds 33 values; the function ends with a barrier, so it may be called again at once.
template <typename T, bool Max>
__device__ T block_reduce(T v, T* smem) {
  v = Max ? warp_max(v) : warp_sum(v);
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
  if (lane == 0) smem[w] = v;
  __syncthreads();
  if (w == 0) {
    T x = lane < nw ? smem[lane] : (Max ? smem[0] : T(0));
    x = Max ? warp_max(x) : warp_sum(x);
    if (lane == 0) smem[32] = x;
  }
  __syncthreads();
  T r = smem[32];
  __syncthreads();
  return r;
}

}  // namespace opscuda

#endif  // RULES_CUDA_GO_OPS_CUDA_COMMON_CUH_
