#include <cuda.h>
#include <cuComplex.h>

__global__ void mul(cuFloatComplex *z) { z[threadIdx.x] = cuCmulf(z[0], cuConjf(z[1])); }
