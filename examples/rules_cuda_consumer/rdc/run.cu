// rules_cuda's "rdc" shape: a kernel calling a __device__ function of another .cu.
#include <cstdio>

#include <cuda_runtime.h>

#include "rdc/counter.cuh"

__global__ void bump_all(int by) { bump(by); }

extern "C" int rdc_main() {
  int zero = 0;
  cudaError_t err = cudaMemcpyToSymbol(counter, &zero, sizeof(int));
  if (err != cudaSuccess) {
    std::printf("SKIP: no usable CUDA device (%s)\n", cudaGetErrorString(err));
    return 0;
  }
  bump_all<<<4, 32>>>(2);
  int got = 0;
  err = cudaMemcpyFromSymbol(&got, counter, sizeof(int));
  if (err != cudaSuccess || got != 4 * 32 * 2) {
    std::printf("FAIL: counter = %d, want %d (%s)\n", got, 4 * 32 * 2, cudaGetErrorString(err));
    return 1;
  }
  std::printf("PASS: rdc\n");
  return 0;
}
