#include <cuda_runtime.h>

#include "tests/rdc/twice.cuh"

__device__ float twice_factor = 2.0f;

__device__ float twice(float x) { return twice_factor * x; }

// Declared in habit.h, for the programs that use this library through habit.
extern "C" int set_twice_factor(float factor) {
  return static_cast<int>(cudaMemcpyToSymbol(twice_factor, &factor, sizeof(factor)));
}
