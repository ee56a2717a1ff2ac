// The Square op's CUDA kernel: y = x*x, a grid-stride loop with 64-bit indexing.
#include <cuda_runtime.h>

#include "ops/cuda/csrc/opscuda.h"
#include "ops/examples/square/square.h"

template <typename T>
__global__ void square_kernel(const T* __restrict__ x, T* __restrict__ y, long long n) {
  long long stride = (long long)blockDim.x * gridDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    y[i] = x[i] * x[i];
  }
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
  if (dtype == OPSCUDA_FLOAT32) {
    square_kernel<float><<<(unsigned)blocks, 256, 0, s>>>((const float*)x, (float*)y, n);
  } else if (dtype == OPSCUDA_FLOAT64) {
    square_kernel<double><<<(unsigned)blocks, 256, 0, s>>>((const double*)x, (double*)y, n);
  } else {
    return (int)cudaErrorInvalidValue;
  }
  return (int)cudaGetLastError();
}
