#include <vector>
#include <helper.h>
#include <mapped.h>
#include <lib/pkg/pkg.cuh>

__global__ void fill(float* out, float v) { out[threadIdx.x] = v; }
