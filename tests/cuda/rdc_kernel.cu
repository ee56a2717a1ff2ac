// Calls rdc_scale, which rdc_scale.cu defines: a cross-file device call (rdc = True).
#include <cuda_runtime.h>

#include "tests/cuda/rdc.h"
#include "tests/cuda/rdc_scale.cuh"

__global__ void rdc_kernel(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = rdc_scale((float)i);
}

extern "C" int rdc_device_count(int* count) {
  *count = 0;
  cudaError_t err = cudaGetDeviceCount(count);
  if (err != cudaSuccess) *count = 0;
  return (int)err;
}

extern "C" int rdc_run(float* out, int n) {
  if (n <= 0) return 0;
  float* d = nullptr;
  size_t bytes = (size_t)n * sizeof(float);
  cudaError_t err = cudaMalloc(&d, bytes);
  if (err != cudaSuccess) return (int)err;
  rdc_kernel<<<(n + 255) / 256, 256>>>(d, n);
  err = cudaGetLastError();
  if (err == cudaSuccess) err = cudaMemcpy(out, d, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d);
  return (int)err;
}
