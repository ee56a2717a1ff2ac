#include <cstdio>
#include "common.h"

cudaError_t copyResult(float* result, const float* device_value) {
  return cudaMemcpy(result, device_value, sizeof(float), cudaMemcpyDeviceToHost);
}

__global__ void iota(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = static_cast<float>(i % 7);
}

int main() {
  char host[256] = "";
  gethostname(host, sizeof(host) - 1);
  printf("benchmark %s on %s\n", engine.name, host[0] ? "this host" : "an unnamed host");
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    printf("%s: no usable CUDA device\n", engine.name);
    return 1;
  }
  const int n = 1 << 12;
  float* in = nullptr;
  if (cudaMalloc(&in, n * sizeof(float)) != cudaSuccess) return 1;
  iota<<<(n + 255) / 256, 256>>>(in, n);
  float result = 0;
  cudaError_t err = engine.run(in, n, &result);
  cudaFree(in);
  if (err != cudaSuccess) {
    printf("%s: %s\n", engine.name, cudaGetErrorString(err));
    return 1;
  }
  printf("%s = %g\n", engine.name, result);
  return 0;
}
