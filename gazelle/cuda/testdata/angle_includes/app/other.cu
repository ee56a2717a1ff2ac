#include "timing.h"

__global__ void zero(float* out) { out[threadIdx.x] = 0.0f; }
