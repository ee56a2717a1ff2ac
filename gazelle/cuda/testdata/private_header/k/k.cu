#include <cuda_runtime.h>
#include "k/k.h"
#include "detail.cuh"
#include "k/extra.cuh"

extern "C" int k_run(float* x, long long n) { return 0; }
