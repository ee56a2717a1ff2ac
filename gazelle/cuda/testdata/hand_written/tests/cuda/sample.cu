// A sample kernel for the build tests: compiled by cu_library, called from Go through cgo.
#include <cuda_runtime.h>

#include "tests/cuda/sample.h"
#include "tests/cuda/sample_offset.h"

__global__ void scale_kernel(float* x, float a, long long n) {
  long long stride = (long long)blockDim.x * gridDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    x[i] = a * x[i] + SAMPLE_OFFSET;
  }
}

extern "C" int sample_device_count(int* count) {
  *count = 0;
  cudaError_t err = cudaGetDeviceCount(count);
  if (err != cudaSuccess) *count = 0;
  return (int)err;
}

extern "C" int sample_scale(float* x, float a, long long n) {
  if (n <= 0) return 0;
  float* d = nullptr;
  size_t bytes = (size_t)n * sizeof(float);
  cudaError_t err = cudaMalloc(&d, bytes);
  if (err != cudaSuccess) return (int)err;
  err = cudaMemcpy(d, x, bytes, cudaMemcpyHostToDevice);
  if (err == cudaSuccess) {
    long long blocks = (n + 255) / 256;
    scale_kernel<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256>>>(d, a, n);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess) err = cudaMemcpy(x, d, bytes, cudaMemcpyDeviceToHost);
  cudaFree(d);
  return (int)err;
}

extern "C" const char* sample_error_name(int code) { return cudaGetErrorName((cudaError_t)code); }
extern "C" const char* sample_error_string(int code) { return cudaGetErrorString((cudaError_t)code); }
