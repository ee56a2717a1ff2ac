#include <proj_util.h>
#include <helper.h>

__global__ void step(int* n) { *n += 1; }
