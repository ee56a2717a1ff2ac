#include "tests/rdc/base.cuh"
#include "tests/rdc/left.cuh"

__device__ float left_op(float x) { return scaled(x) + 1.0f; }
