#include <cuda_runtime.h>

#include "tests/rdc/diamond.h"
#include "tests/rdc/left.cuh"
#include "tests/rdc/right.cuh"

__global__ void diamond_kernel(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = left_op(in[i]) + right_op(in[i]);
}

extern "C" int rdc_diamond(const float* in, float* out, int n) {
  if (n <= 0) return 0;
  float *d_in = nullptr, *d_out = nullptr;
  size_t bytes = sizeof(float) * static_cast<size_t>(n);
  cudaError_t err = cudaMalloc(&d_in, bytes);
  if (err == cudaSuccess) err = cudaMalloc(&d_out, bytes);
  if (err == cudaSuccess) err = cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice);
  if (err == cudaSuccess) {
    diamond_kernel<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess) err = cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d_in);
  cudaFree(d_out);
  return static_cast<int>(err);
}

extern "C" int rdc_device_count(int* count) { return static_cast<int>(cudaGetDeviceCount(count)); }

extern "C" const char* rdc_error_name(int code) {
  return cudaGetErrorName(static_cast<cudaError_t>(code));
}
