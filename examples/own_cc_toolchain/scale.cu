#include <cuda_runtime.h>

#include "scale.h"

__global__ void scale_kernel(float* x, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

extern "C" int scale(float* x, int n, float a) {
  float* d = nullptr;
  cudaError_t err = cudaMalloc(&d, n * sizeof(float));
  if (err != cudaSuccess) return (int)err;
  err = cudaMemcpy(d, x, n * sizeof(float), cudaMemcpyHostToDevice);
  if (err == cudaSuccess) {
    scale_kernel<<<(n + 255) / 256, 256>>>(d, n, a);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess) err = cudaMemcpy(x, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return (int)err;
}
