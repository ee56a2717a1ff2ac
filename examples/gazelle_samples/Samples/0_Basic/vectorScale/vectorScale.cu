// Multiplies a vector by a constant on the GPU and checks one element.
#include <cstdio>
#include <helper_check.h>
#include <stopwatch.h>
#include "helper_grid.h"

__global__ void scale(float* v, float s, unsigned int n) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= s;
}

int main() {
  const unsigned int n = 1u << 12;
  Stopwatch watch;
  watch.start();
  float* v = nullptr;
  SAMPLE_CHECK(cudaMalloc(&v, n * sizeof(float)));
  SAMPLE_CHECK(cudaMemset(v, 0, n * sizeof(float)));
  scale<<<blocks_for(n, 256), 256>>>(v, 2.0f, n);
  SAMPLE_CHECK(cudaGetLastError());
  SAMPLE_CHECK(cudaFree(v));
  std::printf("%.3f ms\n", watch.elapsed_ms());
  return 0;
}
