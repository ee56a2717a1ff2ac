#include "tests/cuda/rdc_scale.cuh"

__device__ float rdc_scale(float x) { return 2.0f * x + 1.0f; }
