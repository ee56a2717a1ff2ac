#include "shared/zero.cuh"
// Included twice: the guard makes the second one empty.
#include "shared/zero.cuh"

__global__ void k() {}
