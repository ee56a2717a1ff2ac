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

// Blocks of `threads` threads for one work item per thread (at least 1, at most 2^31-1: the
// kernels loop past that).
inline unsigned cover(unsigned long long items, int threads) {
  unsigned long long g = (items + threads - 1) / threads;
  if (g < 1) g = 1;
  return g > 0x7fffffffull ? 0x7fffffffu : (unsigned)g;
}

// Whether indices up to n (elements or storage offsets) fit the 32-bit kernels.
inline bool fits32(unsigned long long n) { return n <= 0x7fffffffull; }

// A kernel indexing with I over a cover() grid takes at most one item per thread: with 32-bit
// indices the grid has a thread for every item, so its grid-stride loop is compiled away.
template <typename I>
inline constexpr bool kOnce = sizeof(I) == 4;

// ---- An elementwise problem (the OPSCUDA_EW parameters of an entry point, opscuda.h) and its
// inputs, indexed through their strides (dimensions merged on the Go side).

// The problem, with the layout in fixed arrays: strides[k][d] is input k's stride along d.
// Contiguous inputs have ndim == 1 and stride 1.
struct Ew {
  int device;
  int dtype;
  int nin;
  int ndim;
  long long n;
  opscuda_dptr out;
  opscuda_dptr in[2];
  long long sizes[kMaxDims];
  long long strides[2][kMaxDims];
};

// Fills e from an entry point's OPSCUDA_EW parameters; false when they cannot describe a problem
// (more than two inputs, ndim out of range).
inline bool make_ew(Ew* e, int device, int dtype, opscuda_dptr out, const opscuda_dptr* in, int nin,
                    long long n, int ndim, const long long* sizes, const long long* strides) {
  if (nin < 0 || nin > 2 || (in == nullptr && nin > 0)) return false;
  *e = Ew{};
  e->device = device;
  e->dtype = dtype;
  e->nin = nin;
  e->n = n;
  e->out = out;
  for (int k = 0; k < nin; k++) e->in[k] = in[k];
  if (sizes == nullptr || strides == nullptr) {
    e->ndim = 1;
    e->sizes[0] = n;
    for (int k = 0; k < nin; k++) e->strides[k][0] = 1;
    return true;
  }
  if (ndim < 1 || ndim > kMaxDims) return false;
  e->ndim = ndim;
  for (int d = 0; d < ndim; d++) {
    e->sizes[d] = sizes[d];
    for (int k = 0; k < nin; k++) e->strides[k][d] = strides[k * ndim + d];
  }
  return true;
}

// In an entry point with the OPSCUDA_EW parameters: declares `const Ew* e`, their problem, and
// returns cudaErrorInvalidValue when they describe none.
#define OPSCUDA_EW_PROBLEM(e)                                                           \
  Ew e##_problem;                                                                       \
  if (!make_ew(&e##_problem, device, dtype, out, in, nin, n, ndim, sizes, strides)) {   \
    return (int)cudaErrorInvalidValue;                                                  \
  }                                                                                     \
  const Ew* e = &e##_problem

// The sizes and NIN inputs' strides of up to kMaxDims dimensions (past ndim: size 1, stride 0).
template <int NIN>
struct Strides {
  int ndim;
  long long sizes[kMaxDims];
  long long strides[NIN][kMaxDims];
};

// e's sizes and the strides of its first NIN inputs.
template <int NIN>
inline Strides<NIN> strides_of(const Ew* e) {
  Strides<NIN> s;
  s.ndim = e->ndim;
  for (int d = 0; d < kMaxDims; d++) {
    s.sizes[d] = d < e->ndim ? e->sizes[d] : 1;
    for (int k = 0; k < NIN; k++) s.strides[k][d] = d < e->ndim ? e->strides[k][d] : 0;
  }
  return s;
}

// The storage offset of logical element i in each of the NIN inputs.
template <int NIN, typename I>
__device__ __forceinline__ void offsets(I i, const Strides<NIN>& s, I (&off)[NIN]) {
#pragma unroll
  for (int k = 0; k < NIN; k++) off[k] = 0;
  I rem = i;
#pragma unroll
  for (int d = kMaxDims - 1; d >= 0; d--) {
    if (d < s.ndim) {
      const I size = (I)s.sizes[d];
      const I c = rem % size;
      rem /= size;
#pragma unroll
      for (int k = 0; k < NIN; k++) off[k] += c * (I)s.strides[k][d];
    }
  }
}

// Whether every input of e is contiguous (one dimension of stride 1).
inline bool contiguous(const Ew* e) {
  if (e->ndim != 1) return false;
  for (int k = 0; k < e->nin; k++) {
    if (e->strides[k][0] != 1) return false;
  }
  return true;
}

// Largest storage index any operand of e reaches, plus one (for choosing 32-bit indexing).
inline unsigned long long extent(const Ew* e) {
  unsigned long long m = (unsigned long long)e->n;
  for (int k = 0; k < e->nin; k++) {
    unsigned long long x = 1;
    for (int d = 0; d < e->ndim; d++) {
      x += (unsigned long long)(e->sizes[d] - 1) * (unsigned long long)e->strides[k][d];
    }
    if (x > m) m = x;
  }
  return m;
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
