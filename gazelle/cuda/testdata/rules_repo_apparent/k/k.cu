#include <cuda_runtime.h>
#include "k/k.h"

extern "C" int k_run(float* x, long long n) { return 0; }
