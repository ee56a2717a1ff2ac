#pragma once
#include <cuda_runtime.h>
__host__ __device__ inline float dot2(float2 a, float2 b) { return a.x * b.x + a.y * b.y; }
