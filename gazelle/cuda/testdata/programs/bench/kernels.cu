#include "kernels.h"

__global__ void fill_kernel(float* x, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = v;
}

void fill(float* x, float v, int n, cudaStream_t s) { fill_kernel<<<(n + 127) / 128, 128, 0, s>>>(x, v, n); }

extern "C" int bench_warmup() { return cudaFree(nullptr) == cudaSuccess ? 0 : 1; }
