// Adds two vectors on the GPU, from a folder and a file whose names have spaces (course
// repositories are laid out like this).
#include <cstdio>
#include <helper_check.h>

__global__ void add(const float* a, const float* b, float* c, unsigned int n) {
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const unsigned int n = 1000;
  float *a = nullptr, *b = nullptr, *c = nullptr;
  SAMPLE_CHECK(cudaMalloc(&a, n * sizeof(float)));
  SAMPLE_CHECK(cudaMalloc(&b, n * sizeof(float)));
  SAMPLE_CHECK(cudaMalloc(&c, n * sizeof(float)));
  add<<<(n + 255) / 256, 256>>>(a, b, c, n);
  SAMPLE_CHECK(cudaGetLastError());
  SAMPLE_CHECK(cudaFree(a));
  SAMPLE_CHECK(cudaFree(b));
  SAMPLE_CHECK(cudaFree(c));
  std::printf("added %u elements\n", n);
  return 0;
}
