#include "former/vec.h"

__global__ void zero(Vec v) { v.data[threadIdx.x] = 0; }
