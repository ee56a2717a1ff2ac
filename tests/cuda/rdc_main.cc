// Runs the rdc sample (a kernel calling a __device__ function of another file). Built in release
// mode by rdc_opt_test: the link proves the device link resolved the call; with a GPU the results
// are checked, without one (no driver or no device) only that path is.
#include <cstdio>

#include "tests/gpu_gate.h"
#include "tests/cuda/rdc.h"

int main() {
#ifndef NDEBUG
  std::fprintf(stderr, "expected a release build (-c opt defines NDEBUG)\n");
  return 1;
#endif
  int count = 0;
  int err = rdc_device_count(&count);
  const int gate = gpu_gate(err, count);
  if (gate >= 0) return gate;
  const int n = 1000;
  static float out[n];
  err = rdc_run(out, n);
  if (err != 0) {
    std::fprintf(stderr, "rdc_run: CUDA error %d\n", err);
    return 1;
  }
  for (int i = 0; i < n; i++) {
    if (out[i] != 2.0f * i + 1.0f) {
      std::fprintf(stderr, "out[%d] = %g, want %g\n", i, out[i], 2.0f * i + 1.0f);
      return 1;
    }
  }
  std::printf("%d CUDA device(s): rdc_scale across files gave 2*i+1 for %d elements\n", count, n);
  return 0;
}
