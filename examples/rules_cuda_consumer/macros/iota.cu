// rules_cuda's "basic_macros" shape: one .cu with main(), as cuda_binary and as cuda_test.
#include <cstdio>

#include <cuda_runtime.h>

__global__ void iota(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i * STEP;
}

int main() {
  const int n = 257;
  int* d = nullptr;
  cudaError_t err = cudaMalloc(&d, n * sizeof(int));
  if (err != cudaSuccess) {
    std::printf("SKIP: no usable CUDA device (%s)\n", cudaGetErrorString(err));
    return 0;
  }
  iota<<<3, 128>>>(d, n);
  int h[n];
  err = cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaFree(d);
  if (err != cudaSuccess) {
    std::printf("FAIL: %s\n", cudaGetErrorString(err));
    return 1;
  }
  for (int i = 0; i < n; i++) {
    if (h[i] != i * STEP) {
      std::printf("FAIL: out[%d] = %d, want %d\n", i, h[i], i * STEP);
      return 1;
    }
  }
  std::printf("PASS: iota\n");
  return 0;
}
