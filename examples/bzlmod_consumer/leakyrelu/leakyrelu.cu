// The LeakyRelu op's CUDA kernels: forward and backward, grid-stride loops with 64-bit indexing.
#include <cuda_runtime.h>

#include "leakyrelu/leakyrelu.h"
#include "ops/cuda/csrc/opscuda.h"

namespace {

template <typename T>
__global__ void forward_kernel(const T* __restrict__ x, T* __restrict__ y, long long n, T slope) {
  long long stride = (long long)blockDim.x * gridDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    T v = x[i];
    y[i] = v > T(0) ? v : slope * v;
  }
}

template <typename T>
__global__ void backward_kernel(const T* __restrict__ g, const T* __restrict__ x,
                                T* __restrict__ gx, long long n, T slope) {
  long long stride = (long long)blockDim.x * gridDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    gx[i] = x[i] > T(0) ? g[i] : slope * g[i];
  }
}

// Selects the device and returns a grid size for n elements (0 when there is nothing to do).
cudaError_t grid_for(int device, long long n, unsigned* blocks) {
  *blocks = 0;
  cudaError_t err = cudaSetDevice(device);
  if (err != cudaSuccess || n == 0) return err;
  int sms = 0;
  err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (err != cudaSuccess) return err;
  long long b = (n + 255) / 256;
  if (b > 8LL * sms) b = 8LL * sms;
  *blocks = (unsigned)b;
  return cudaSuccess;
}

}  // namespace

extern "C" int leakyrelu_forward(unsigned long long stream, int device, int dtype,
                                 unsigned long long x, unsigned long long y, long long n,
                                 double slope) {
  unsigned blocks;
  cudaError_t err = grid_for(device, n, &blocks);
  if (err != cudaSuccess || blocks == 0) return (int)err;
  cudaStream_t s = stream == 0 ? cudaStreamLegacy : (cudaStream_t)stream;
  if (dtype == OPSCUDA_FLOAT32) {
    forward_kernel<float><<<blocks, 256, 0, s>>>((const float*)x, (float*)y, n, (float)slope);
  } else if (dtype == OPSCUDA_FLOAT64) {
    forward_kernel<double><<<blocks, 256, 0, s>>>((const double*)x, (double*)y, n, slope);
  } else {
    return (int)cudaErrorInvalidValue;
  }
  return (int)cudaGetLastError();
}

extern "C" int leakyrelu_backward(unsigned long long stream, int device, int dtype,
                                  unsigned long long g, unsigned long long x, unsigned long long gx,
                                  long long n, double slope) {
  unsigned blocks;
  cudaError_t err = grid_for(device, n, &blocks);
  if (err != cudaSuccess || blocks == 0) return (int)err;
  cudaStream_t s = stream == 0 ? cudaStreamLegacy : (cudaStream_t)stream;
  if (dtype == OPSCUDA_FLOAT32) {
    backward_kernel<float><<<blocks, 256, 0, s>>>(
        (const float*)g, (const float*)x, (float*)gx, n, (float)slope);
  } else if (dtype == OPSCUDA_FLOAT64) {
    backward_kernel<double><<<blocks, 256, 0, s>>>(
        (const double*)g, (const double*)x, (double*)gx, n, slope);
  } else {
    return (int)cudaErrorInvalidValue;
  }
  return (int)cudaGetLastError();
}
