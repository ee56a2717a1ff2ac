#include <helper_check.h>
#include "tally.cuh"

__global__ void count_odd(const int* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (v[i] & 1)) tally_add(1);
}

int main() {
  int* v = nullptr;
  SAMPLE_CHECK(cudaMalloc(&v, 256 * sizeof(int)));
  SAMPLE_CHECK(cudaMemset(v, 1, 256 * sizeof(int)));
  count_odd<<<2, 128>>>(v, 256);
  unsigned int total = 0;
  SAMPLE_CHECK(cudaMemcpyFromSymbol(&total, tally_total, sizeof(total)));
  SAMPLE_CHECK(cudaFree(v));
  return total == 256 ? 0 : 1;
}
