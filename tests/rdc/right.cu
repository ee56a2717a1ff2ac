#include "tests/rdc/base.cuh"
#include "tests/rdc/right.cuh"

__device__ float right_op(float x) { return 3.0f * scaled(x); }
