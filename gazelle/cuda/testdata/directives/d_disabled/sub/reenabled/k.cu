#include <cuda_runtime.h>

extern "C" int k_run(float* x, long long n) { return 0; }
