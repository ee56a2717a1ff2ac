// A kernel launched from a kernel: needs relocatable device code and the device runtime
// (libcudadevrt.a) at device-link time, which cu_library's device link passes to nvcc -dlink.
#include "tests/rdc/cdp.h"

__global__ void cdp_child(const float* in, float* out, int begin, int end) {
  int i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < end) out[i] = 3.0f * in[i] + 1.0f;
}

// One thread per chunk of 1024 elements launches a child grid for its chunk.
__global__ void cdp_parent(const float* in, float* out, int n) {
  int chunk = blockIdx.x * blockDim.x + threadIdx.x;
  int begin = chunk * 1024;
  if (begin >= n) return;
  int end = begin + 1024 < n ? begin + 1024 : n;
  cdp_child<<<(end - begin + 255) / 256, 256>>>(in, out, begin, end);
}

extern "C" int cdp_device_count(int* count) { return cudaGetDeviceCount(count); }

extern "C" const char* cdp_error_name(int err) { return cudaGetErrorName(static_cast<cudaError_t>(err)); }

extern "C" int cdp_run(const float* in, float* out, int n) {
  float *din = nullptr, *dout = nullptr;
  const size_t bytes = sizeof(float) * static_cast<size_t>(n);
  cudaError_t err = cudaMalloc(&din, bytes);
  if (err == cudaSuccess) err = cudaMalloc(&dout, bytes);
  if (err == cudaSuccess) err = cudaMemcpy(din, in, bytes, cudaMemcpyHostToDevice);
  if (err == cudaSuccess && n > 0) {
    const int chunks = (n + 1023) / 1024;
    cdp_parent<<<(chunks + 31) / 32, 32>>>(din, dout, n);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  if (err == cudaSuccess) err = cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
  return err;
}
