// The sum benchmark: one block adds n elements.
#include "common.h"

__global__ void sumKernel(const float* in, int n, float* out) {
  __shared__ float partial[256];
  float s = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += in[i];
  partial[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) partial[threadIdx.x] += partial[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = partial[0];
}

static cudaError_t runSum(const float* in, int n, float* result) {
  float* out = nullptr;
  cudaError_t err = cudaMalloc(&out, sizeof(float));
  if (err != cudaSuccess) return err;
  sumKernel<<<1, 256>>>(in, n, out);
  err = copyResult(result, out);
  cudaFree(out);
  return err;
}

BENCH_WEAK struct benchEngine engine = {"sum", runSum};
