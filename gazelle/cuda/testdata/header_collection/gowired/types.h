#pragma once
#include <cuda_runtime.h>

typedef struct { float* data; long long n; } Vec;
