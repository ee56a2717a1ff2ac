#include "basic/scale.h"

#include <cuda_runtime.h>

__global__ void scale_kernel(float a, float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

int scale_on_gpu(float a, float* x, int n) {
  float* d = nullptr;
  cudaError_t err = cudaMalloc(&d, n * sizeof(float));
  if (err != cudaSuccess) return err;
  cudaMemcpy(d, x, n * sizeof(float), cudaMemcpyHostToDevice);
  scale_kernel<<<(n + 127) / 128, 128>>>(a, d, n);
  err = cudaMemcpy(x, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return err;
}
