// A program from .cu files (cu_test): main() here, a registration in program_plugin.cu that only
// alwayslink links, a header under an include prefix.
#include <cstdio>

#include "tests/parity/registry.h"
#include "vendor/parity/scale.cuh"

__global__ void parity_main_kernel(float* x) { x[threadIdx.x] = parity_scale(x[threadIdx.x]); }

int main() {
  if (!parity_registered("program_plugin")) {
    std::fprintf(stderr, "program_plugin.cu is not linked (%d registered)\n", parity_count());
    return 1;
  }
  if (parity_scale(2.0f) != 6.0f) {
    std::fprintf(stderr, "parity_scale(2) = %g\n", parity_scale(2.0f));
    return 1;
  }
  std::printf("program_plugin registered; scale.cuh found under its prefix\n");
  return 0;
}
