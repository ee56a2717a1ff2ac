#pragma once
#include <cstdio>
#include <cuda_runtime.h>

#define SAMPLE_CHECK(x) do { if ((x) != 0) { std::printf("failed: %s\n", #x); return 1; } } while (0)
