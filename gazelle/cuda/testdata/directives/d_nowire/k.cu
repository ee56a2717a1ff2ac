#include <cuda_runtime.h>
#include "d_nowire/k.h"

extern "C" int k_run(float* x, long long n) { return 0; }
