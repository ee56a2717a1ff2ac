// Host code and a kernel in a cu_library with linkstatic = False: a shared library too.
#include "tests/parity/shared.h"

__global__ void parity_shared_kernel(float* x) { x[threadIdx.x] -= 1.0f; }

int parity_shared_value() { return 42; }
