#include <cuda_runtime.h>
#include "kern/kern.cuh"
#include "vendor/v.h"

extern "C" int app_run(float* x) { return V; }
