#include <cuda_runtime.h>
#include "other/pkg/x.cuh"
#include "c/c.h"
#include "virt/v.h"
#include "over.h"
#include "over2.h"
#include "cu_inc.cuh"

extern "C" int k_run(float* x, long long n) { return 0; }
