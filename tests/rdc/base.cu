#include "tests/rdc/base.cuh"

#include "tests/rdc/diamond.h"

__device__ float g_factor = 1.0f;

__device__ float scaled(float x) { return x * g_factor; }

// The host side of g_factor: only one device-linked copy of it may exist in a binary, or this
// would set a copy the kernels do not read.
extern "C" int rdc_set_factor(float f) {
  return static_cast<int>(cudaMemcpyToSymbol(g_factor, &f, sizeof f));
}
