// Lists the visible GPUs (host code only, through the CUDA runtime).
#include <cstdio>
#include <cuda_runtime.h>

int main() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) n = 0;
  for (int i = 0; i < n; ++i) {
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, i) == cudaSuccess) std::printf("%d: %s (sm_%d%d)\n", i, p.name, p.major, p.minor);
  }
  std::printf("%d device(s)\n", n);
  return 0;
}
