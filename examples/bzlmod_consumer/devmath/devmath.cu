#include "devmath/devmath.cuh"

__device__ float quadratic(float x, float a, float b, float c) { return fmaf(fmaf(a, x, b), x, c); }
