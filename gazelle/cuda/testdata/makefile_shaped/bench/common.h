#pragma once
#include <cuda_runtime.h>

#define BENCH_WEAK __attribute__((weak))

struct engine {
  const char* name;
  float (*run)(int n);
};

// Each benchmark file defines it.
extern struct engine theEngine;

float fill_and_sum(int n, float value);
