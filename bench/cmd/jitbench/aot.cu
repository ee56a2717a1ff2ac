// jitsilu's forward kernel, the same text as jitsilu.Source, built ahead of time by a cu_library.
#include <cuda/std/type_traits>
#include <cuda_runtime.h>

#include "bench/cmd/jitbench/aot.h"

template <typename T>
__global__ void silu_forward(T* __restrict__ y, const T* __restrict__ x, long long n) {
  static_assert(cuda::std::is_floating_point<T>::value, "SiLU: floating-point types only");
  long long stride = (long long)blockDim.x * gridDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    double v = (double)x[i];
    y[i] = (T)(v / (1.0 + exp(-v)));
  }
}

extern "C" int jitbench_silu_forward(unsigned long long y, unsigned long long x, long long n, int blocks, int threads) {
  silu_forward<float><<<blocks, threads, 0, cudaStreamLegacy>>>(reinterpret_cast<float*>(y),
                                                                  reinterpret_cast<const float*>(x), n);
  return static_cast<int>(cudaGetLastError());
}

extern "C" const char* jitbench_error_name(int code) { return cudaGetErrorName(static_cast<cudaError_t>(code)); }
