#include <cuda_runtime.h>

#include "tests/rdc/habit.h"
#include "tests/rdc/twice.cuh"

__global__ void habit_kernel(float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = twice(data[i]);
}

extern "C" int rdc_habit(float* data, int n) {
  if (n <= 0) return 0;
  float* d = nullptr;
  size_t bytes = sizeof(float) * static_cast<size_t>(n);
  cudaError_t err = cudaMalloc(&d, bytes);
  if (err == cudaSuccess) err = cudaMemcpy(d, data, bytes, cudaMemcpyHostToDevice);
  if (err == cudaSuccess) {
    habit_kernel<<<(n + 255) / 256, 256>>>(d, n);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess) err = cudaMemcpy(data, d, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d);
  return static_cast<int>(err);
}

extern "C" int rdc_habit_device_count(int* count) {
  return static_cast<int>(cudaGetDeviceCount(count));
}
