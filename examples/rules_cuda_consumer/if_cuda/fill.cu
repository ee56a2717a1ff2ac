#include "if_cuda/fill.h"

#include <cuda_runtime.h>

__global__ void fill_kernel(int* out, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = v;
}

int fill_on_gpu(int* out, int n, int v) {
  int* d = nullptr;
  cudaError_t err = cudaMalloc(&d, n * sizeof(int));
  if (err != cudaSuccess) return err;
  fill_kernel<<<(n + 63) / 64, 64>>>(d, n, v);
  err = cudaMemcpy(out, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return err;
}
