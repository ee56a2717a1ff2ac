#pragma once
#include <cuda_runtime.h>
#include <extra_defs.h>

#define CHECK(x) do { if ((x) != cudaSuccess) return EXTRA_FAILURE; } while (0)
