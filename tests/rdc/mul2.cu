#include "tests/rdc/mul2.cuh"

__device__ float multiplyByTwo(float x) { return x * 2.0f; }
