#include "kernels.h"

__global__ void add_one(int* v) { v[threadIdx.x] += 1; }
