#include <cuda_runtime.h>
#include "ops/b.cuh"

extern "C" int b() { return 0; }
