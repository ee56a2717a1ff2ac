// What the C++ test programs do with cudaGetDeviceCount's result.
#ifndef TESTS_GPU_GATE_H_
#define TESTS_GPU_GATE_H_

#include <cstdio>

// Returns -1 when there is a GPU (go on), else the program's exit status: 0 without a usable GPU
// (cudaErrorInsufficientDriver 35, cudaErrorNoDevice 100: that the program linked was the test),
// 1 on any other error.
inline int gpu_gate(int err, int count) {
  if (err == 35 || err == 100) {
    std::printf("no CUDA device (error %d): linked, GPU part skipped\n", err);
    return 0;
  }
  if (err != 0 || count == 0) {
    std::fprintf(stderr, "cudaGetDeviceCount: error %d, %d devices\n", err, count);
    return 1;
  }
  return -1;
}

#endif  // TESTS_GPU_GATE_H_
