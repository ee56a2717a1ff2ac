#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                       \
  do {                                                                    \
    cudaError_t err_ = (call);                                            \
    if (err_ != cudaSuccess) {                                            \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(err_)); \
      std::exit(1);                                                       \
    }                                                                     \
  } while (0)

inline float* device_buffer(int n) {
  float* p = nullptr;
  CHECK(cudaMalloc(&p, n * sizeof(float)));
  return p;
}
