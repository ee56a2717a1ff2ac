#include <cuda_runtime.h>

__global__ void empty() {}

int main() {
  empty<<<1, 1>>>();
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
