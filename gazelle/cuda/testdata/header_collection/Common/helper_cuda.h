#pragma once
#include <cstdio>
#include <cuda_runtime.h>
#include "helper_string.h"

#define checkCuda(x) check_result((x), #x, __FILE__, __LINE__)

inline void check_result(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess) std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, what, cudaGetErrorString(e));
}
