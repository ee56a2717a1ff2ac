#include <cuda.h>
#include <cstdio>

int main() {
  CUmemGenericAllocationHandle h;
  CUmemAllocationProp prop = {};
  if (cuMemCreate(&h, 1 << 21, &prop, 0) != CUDA_SUCCESS) std::printf("no driver\n");
  return 0;
}
