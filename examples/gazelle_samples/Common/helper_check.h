// Shared by every sample: turn a failed CUDA call into a message and an exit status.
#pragma once
#include <cstdio>
#include <cuda_runtime.h>

#define SAMPLE_CHECK(call)                                                        \
  do {                                                                            \
    cudaError_t sample_err_ = (call);                                             \
    if (sample_err_ != cudaSuccess) {                                             \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                     \
                   cudaGetErrorString(sample_err_));                              \
      return sample_err_ == cudaErrorNoDevice || sample_err_ == cudaErrorInsufficientDriver ? 0 : 1; \
    }                                                                             \
  } while (0)
