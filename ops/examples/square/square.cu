// The Square op's CUDA kernel: y = x*x, a grid-stride loop with 64-bit indexing, for the four
// dtypes of the C ABI. __half and __nv_bfloat16 are widened to float, squared there and rounded to
// nearest even (the way the built-in kernels compute on 16-bit data).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "ops/cuda/csrc/opscuda.h"
#include "ops/examples/square/square.h"

__device__ __forceinline__ float square(float v) { return v * v; }
__device__ __forceinline__ double square(double v) { return v * v; }
__device__ __forceinline__ __half square(__half v) {
  const float f = __half2float(v);
  return __float2half_rn(f * f);
}
__device__ __forceinline__ __nv_bfloat16 square(__nv_bfloat16 v) {
  const float f = __bfloat162float(v);
  return __float2bfloat16_rn(f * f);
}

template <typename T>
__global__ void square_kernel(const T* __restrict__ x, T* __restrict__ y, long long n) {
  long long stride = (long long)blockDim.x * gridDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    y[i] = square(x[i]);
  }
}

template <typename T>
void launch(unsigned blocks, cudaStream_t s, unsigned long long x, unsigned long long y,
            long long n) {
  square_kernel<T><<<blocks, 256, 0, s>>>((const T*)x, (T*)y, n);
}

extern "C" int square_launch(unsigned long long stream, int device, int dtype,
                             unsigned long long x, unsigned long long y, long long n) {
  cudaError_t err = cudaSetDevice(device);
  if (err != cudaSuccess || n == 0) return (int)err;
  int sms = 0;
  err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (err != cudaSuccess) return (int)err;
  long long blocks = (n + 255) / 256;
  if (blocks > 8LL * sms) blocks = 8LL * sms;
  cudaStream_t s = stream == 0 ? cudaStreamLegacy : (cudaStream_t)stream;
  switch (dtype) {
    case OPSCUDA_FLOAT32:
      launch<float>((unsigned)blocks, s, x, y, n);
      break;
    case OPSCUDA_FLOAT64:
      launch<double>((unsigned)blocks, s, x, y, n);
      break;
    case OPSCUDA_FLOAT16:
      launch<__half>((unsigned)blocks, s, x, y, n);
      break;
    case OPSCUDA_BFLOAT16:
      launch<__nv_bfloat16>((unsigned)blocks, s, x, y, n);
      break;
    default:
      return (int)cudaErrorInvalidValue;
  }
  return (int)cudaGetLastError();
}
