// saxpy on the GPU from a .cpp file that launches a kernel: y = 2 * x + y, checked on the host.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

#include "saxpy_kernels.h"

int main() {
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; i++) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }
  float *dx = nullptr, *dy = nullptr;
  cudaError_t err = cudaMalloc(&dx, n * sizeof(float));
  if (err == cudaSuccess) err = cudaMalloc(&dy, n * sizeof(float));
  if (err != cudaSuccess) {
    std::fprintf(stderr, "hostLaunch: no usable CUDA device: %s\n", cudaGetErrorString(err));
    return 1;
  }
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  launch_saxpy(n, 2.0f, dx, dy);
  err = cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  if (err != cudaSuccess) {
    std::fprintf(stderr, "hostLaunch: %s\n", cudaGetErrorString(err));
    return 1;
  }
  for (int i = 0; i < n; i++) {
    if (y[i] != 2.0f * i + 1.0f) {
      std::fprintf(stderr, "hostLaunch: y[%d] = %g, want %g\n", i, y[i], 2.0f * i + 1.0f);
      return 1;
    }
  }
  std::printf("hostLaunch: saxpy of %d elements: PASS\n", n);
  return 0;
}
