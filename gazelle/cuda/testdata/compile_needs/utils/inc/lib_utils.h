#pragma once
#include <cuda_runtime.h>

#define CHECK(x) do { if ((x) != cudaSuccess) return 1; } while (0)
