// Norm of ops/cuda: one kernel, double accumulation, deterministic (float16 and bfloat16 loaded
// as float, 16-byte loads of 8 elements, squares of a pack added in float, then in double).
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#include <mutex>
#include <unordered_map>

#include "ops/cuda/csrc/common.cuh"
#include "ops/cuda/csrc/opscuda.h"

namespace opscuda {
namespace {

// ---------------------------------------------------------------------------------------------
// Norm: one kernel. A grid of at most kNormBlocksPerSM blocks per SM; every thread sums squares in
// double over a grid-stride loop (kNormUnroll 16-byte loads in flight when contiguous and aligned;
// a float32 pack's four squares are added in float first), each block reduces with warp shuffles
// and shared memory and writes one partial sum to the device's norm scratch; the block that
// finishes last (an atomic counter) adds the partial sums in a fixed order, writes the square root
// and resets the counter. The grid depends only on the size and the device's SM count, so results
// are reproducible on a device. The scratch is allocated once per device and stream and reused:
// the kernels of one stream run one at a time. A grid of one block writes the result directly.

constexpr int kNormThreads = 512;
constexpr int kNormBlocksPerSM = 4;
constexpr int kNormUnroll = 4;

// Mode of the norm kernel.
enum { kVector = 0, kContiguous = 1, kStrided = 2 };

// The norm scratch of a device: a partial sum per block and the counter of finished blocks.
struct NormScratch {
  double* partial;  // sm_count * kNormBlocksPerSM doubles, then the unsigned counter
  unsigned* count;
};

struct ScratchKey {
  int device;
  cudaStream_t stream;
  bool operator==(const ScratchKey& o) const { return device == o.device && stream == o.stream; }
};
struct ScratchKeyHash {
  size_t operator()(const ScratchKey& k) const {
    return std::hash<uintptr_t>()((uintptr_t)k.stream) * 31u + (size_t)k.device;
  }
};

std::mutex g_norm_mu;
// By device and stream: kernels on one stream run one at a time, those on different streams may
// overlap, so each stream has its own. The legacy stream's are never freed; a stream's go when it
// is destroyed (release_stream_scratch).
std::unordered_map<ScratchKey, NormScratch, ScratchKeyHash> g_norm;

cudaError_t norm_scratch(int device, NormScratch* out) {
  std::lock_guard<std::mutex> lock(g_norm_mu);
  NormScratch& s = g_norm[ScratchKey{device, stream()}];
  if (s.partial == nullptr) {
    // Plain cudaMalloc, zeroed and waited for on the legacy stream: the scratch outlives any
    // graph being captured on stream(), and is ready before stream() uses it.
    RelaxedCapture relaxed;
    const size_t blocks = (size_t)sm_count(device) * kNormBlocksPerSM;
    void* p = nullptr;
    cudaError_t err = cudaMalloc(&p, blocks * sizeof(double) + sizeof(unsigned));
    if (err != cudaSuccess) return err;
    unsigned* count = reinterpret_cast<unsigned*>(static_cast<double*>(p) + blocks);
    err = cudaMemsetAsync(count, 0, sizeof(unsigned), cudaStreamLegacy);
    if (err == cudaSuccess) err = cudaStreamSynchronize(cudaStreamLegacy);
    if (err != cudaSuccess) {
      (void)cudaFree(p);
      return err;
    }
    s.partial = static_cast<double*>(p);
    s.count = count;
  }
  *out = s;
  return cudaSuccess;
}

}  // namespace

void release_stream_scratch(int device, cudaStream_t st) {
  NormScratch s = {nullptr, nullptr};
  {
    std::lock_guard<std::mutex> lock(g_norm_mu);
    auto it = g_norm.find(ScratchKey{device, st});
    if (it == g_norm.end()) return;
    s = it->second;
    g_norm.erase(it);
  }
  RelaxedCapture relaxed;
  (void)cudaFree(s.partial);  // the stream's work is complete (opscuda_stream_destroy waited)
}

namespace {

template <typename T, int N>
__device__ __forceinline__ double sum_squares(const Pack<T, N>& a) {
  using W = wide_t<T>;
  const W a0 = to_wide(a.v[0]);
  W s = a0 * a0;
#pragma unroll
  for (int j = 1; j < N; j++) {
    const W v = to_wide(a.v[j]);
    s = fma(v, v, s);
  }
  return double(s);
}

template <typename T, int Mode, typename I>
__global__ void __launch_bounds__(kNormThreads)
    norm_kernel(const T* __restrict__ x, Strides<1> s, long long n, double* partial,
                unsigned* count, T* out) {
  double acc0 = 0, acc1 = 0;
  const long long tid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  const long long nthreads = (long long)gridDim.x * blockDim.x;
  if (Mode == kVector) {
    constexpr int N = 16 / sizeof(T);
    using P = Pack<T, N>;
    const long long nvec = n / N;
    const P* xv = reinterpret_cast<const P*>(x);
    long long i = tid;
    for (; i + (kNormUnroll - 1) * nthreads < nvec; i += kNormUnroll * nthreads) {
      P a[kNormUnroll];
#pragma unroll
      for (int u = 0; u < kNormUnroll; u++) a[u] = xv[i + u * nthreads];
#pragma unroll
      for (int u = 0; u < kNormUnroll; u += 2) {
        acc0 += sum_squares(a[u]);
        acc1 += sum_squares(a[u + 1]);
      }
    }
    for (; i < nvec; i += nthreads) acc0 += sum_squares(xv[i]);
    const long long t = nvec * N + tid;
    if (t < n) {
      double u = double(to_wide(x[t]));
      acc1 += u * u;
    }
  } else if (Mode == kContiguous) {
    for (long long i = tid; i < n; i += nthreads) {
      double u = double(to_wide(x[i]));
      acc0 += u * u;
    }
  } else {
    for (I i = (I)tid; i < (I)n; i += (I)nthreads) {
      I off[1];
      offsets(i, s, off);
      double u = double(to_wide(x[off[0]]));
      acc0 += u * u;
    }
  }
  __shared__ double smem[33];
  __shared__ bool last;
  const double b = block_reduce<double, false>(acc0 + acc1, smem);
  if (gridDim.x == 1) {
    if (threadIdx.x == 0) out[0] = from_wide<T>(sqrt(b));
    return;
  }
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = b;
    __threadfence();  // the partial sum is visible before the count says so
    last = atomicAdd(count, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  double a = 0;
  for (unsigned i = threadIdx.x; i < gridDim.x; i += blockDim.x) {
    a += static_cast<volatile double*>(partial)[i];
  }
  a = block_reduce<double, false>(a, smem);
  if (threadIdx.x == 0) {
    out[0] = from_wide<T>(sqrt(a));
    *count = 0;
  }
}

template <typename T>
cudaError_t norm_typed(const Ew* e) {
  const T* x = cptr<T>(e->in[0]);
  T* out = mptr<T>(e->out);
  const long long n = e->n;
  if (n <= 0) return cudaMemsetAsync(out, 0, sizeof(T), stream());
  const Strides<1> s = strides_of<1>(e);
  const bool contig = contiguous(e);
  const bool vec = contig && (e->in[0] & 15) == 0;
  constexpr int N = 16 / sizeof(T);
  const long long items = vec ? (n / N + kNormUnroll - 1) / kNormUnroll + 1 : n;
  const unsigned grid = grid_for(e->device, items, kNormThreads, kNormBlocksPerSM);
  NormScratch sc = {nullptr, nullptr};
  if (grid > 1) {
    cudaError_t err = norm_scratch(e->device, &sc);
    if (err != cudaSuccess) return err;
  }
  if (vec) {
    norm_kernel<T, kVector, uint64_t>
        <<<grid, kNormThreads, 0, stream()>>>(x, s, n, sc.partial, sc.count, out);
  } else if (contig) {
    norm_kernel<T, kContiguous, uint64_t>
        <<<grid, kNormThreads, 0, stream()>>>(x, s, n, sc.partial, sc.count, out);
  } else if (fits32(extent(e))) {
    norm_kernel<T, kStrided, uint32_t>
        <<<grid, kNormThreads, 0, stream()>>>(x, s, n, sc.partial, sc.count, out);
  } else {
    norm_kernel<T, kStrided, uint64_t>
        <<<grid, kNormThreads, 0, stream()>>>(x, s, n, sc.partial, sc.count, out);
  }
  return launched();
}

}  // namespace
}  // namespace opscuda

using namespace opscuda;

extern "C" int opscuda_norm(OPSCUDA_EW) {
  OPSCUDA_EW_PROBLEM(e);
  if (e->nin != 1 || e->ndim < 1 || e->ndim > kMaxDims) return (int)cudaErrorInvalidValue;
  cudaError_t err = enter(e->device, st);
  if (err != cudaSuccess) return (int)err;
  switch (e->dtype) {
    case OPSCUDA_FLOAT32:
      return (int)norm_typed<float>(e);
    case OPSCUDA_FLOAT64:
      return (int)norm_typed<double>(e);
    case OPSCUDA_FLOAT16:
      return (int)norm_typed<__half>(e);
    case OPSCUDA_BFLOAT16:
      return (int)norm_typed<__nv_bfloat16>(e);
  }
  return (int)cudaErrorInvalidValue;
}
