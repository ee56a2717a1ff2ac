// Shared declarations of the reduction benchmarks: common.cu has main() and runs the engine that
// each benchmark file (sum_bench.cu, max_bench.cu) defines, as a Makefile links each benchmark
// file with common.o into a program of its own.
#pragma once
#include <cuda_runtime.h>

// The Makefile passes -DGS_OS_LINUX (here: # gazelle:cuda_define in the root BUILD file).
#if defined(GS_OS_LINUX)
#include <unistd.h>
#define BENCH_WEAK __attribute__((weak))
#else
#include "bench_win32.h"
#endif

struct benchEngine {
  const char* name;
  // Runs the benchmark on n elements of device memory; returns its result.
  cudaError_t (*run)(const float* in, int n, float* result);
};

// Defined by each benchmark file; main() reads it.
extern struct benchEngine engine;

// Helpers of common.cu that the benchmark files use.
cudaError_t copyResult(float* result, const float* device_value);
