#include <cuda_runtime.h>
#include "kernels/scale.h"
#include "common.cuh"

extern "C" int k_run(float* x, long long n) { return 0; }
