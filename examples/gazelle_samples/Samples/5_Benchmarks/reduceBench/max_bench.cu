// The max benchmark: one block finds the largest of n elements.
#include "common.h"

__global__ void maxKernel(const float* in, int n, float* out) {
  __shared__ float partial[256];
  float m = in[0];
  for (int i = threadIdx.x; i < n; i += blockDim.x) m = fmaxf(m, in[i]);
  partial[threadIdx.x] = m;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) partial[threadIdx.x] = fmaxf(partial[threadIdx.x], partial[threadIdx.x + w]);
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = partial[0];
}

static cudaError_t runMax(const float* in, int n, float* result) {
  float* out = nullptr;
  cudaError_t err = cudaMalloc(&out, sizeof(float));
  if (err != cudaSuccess) return err;
  maxKernel<<<1, 256>>>(in, n, out);
  err = copyResult(result, out);
  cudaFree(out);
  return err;
}

BENCH_WEAK struct benchEngine engine = {"max", runMax};
