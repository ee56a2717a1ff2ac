// Host code in a .cu file, as NVIDIA's samples write it: strtol, sqrtf, snprintf, the math headers.
// Compiled by nvcc with the C++ toolchain's GCC and --sysroot, so it needs only the baseline's glibc.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tests/glibc/samples/vector_sqrt.h"

__global__ void sqrt_kernel(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = sqrtf(x[i]);
}

extern "C" int vs_device_count(int* count) { return cudaGetDeviceCount(count); }

extern "C" const char* vs_error_name(int err) { return cudaGetErrorName(static_cast<cudaError_t>(err)); }

extern "C" int vs_sqrt(const float* x, float* y, int n) {
  float *dx = nullptr, *dy = nullptr;
  const size_t bytes = sizeof(float) * static_cast<size_t>(n);
  cudaError_t err = cudaMalloc(&dx, bytes);
  if (err == cudaSuccess) err = cudaMalloc(&dy, bytes);
  if (err == cudaSuccess) err = cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  if (err == cudaSuccess && n > 0) {
    sqrt_kernel<<<(n + 255) / 256, 256>>>(dx, dy, n);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess) err = cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  return err;
}

extern "C" int vs_describe(char* out, int size) {
  cudaDeviceProp prop;
  cudaError_t err = cudaGetDeviceProperties(&prop, 0);
  if (err != cudaSuccess) return err;
  char bus[32];
  std::snprintf(bus, sizeof bus, "%x", prop.pciBusID);
  const long parsed = std::strtol(bus, nullptr, 16);  // round trip through strtol, as samples do
  std::snprintf(out, size, "%s (sm_%d%d, PCI bus %ld, %.1f GiB)", prop.name, prop.major, prop.minor, parsed,
                std::ldexp(static_cast<double>(prop.totalGlobalMem), -30));
  return cudaSuccess;
}
