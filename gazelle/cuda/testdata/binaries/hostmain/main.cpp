#include <cuda_runtime.h>

extern "C" void run_k(float* v);

int main() {
  float* v = nullptr;
  if (cudaMalloc(&v, 32 * sizeof(float)) != cudaSuccess) return 0;
  run_k(v);
  return cudaFree(v) == cudaSuccess ? 0 : 1;
}
