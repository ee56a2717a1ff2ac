#include <cuda_runtime.h>

#include "devmath/devmath.cuh"
#include "polyval/polyval.h"

// Calls quadratic(), a __device__ function of another target (//devmath).
__global__ void polyval_kernel(const float* x, float* y, int n, float a, float b, float c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = quadratic(x[i], a, b, c);
}

extern "C" int polyval_quadratic(const float* x, float* y, int n, float a, float b, float c) {
  if (n <= 0) return 0;
  float *dx = nullptr, *dy = nullptr;
  size_t bytes = sizeof(float) * static_cast<size_t>(n);
  cudaError_t err = cudaMalloc(&dx, bytes);
  if (err == cudaSuccess) err = cudaMalloc(&dy, bytes);
  if (err == cudaSuccess) err = cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  if (err == cudaSuccess) {
    polyval_kernel<<<(n + 255) / 256, 256>>>(dx, dy, n, a, b, c);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess) err = cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  return static_cast<int>(err);
}

extern "C" int polyval_device_count(int* count) { return static_cast<int>(cudaGetDeviceCount(count)); }
