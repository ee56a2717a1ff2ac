#include <cuda_runtime.h>
#include "x.cuh"

extern "C" int k_run(float* x, long long n) { return 0; }
