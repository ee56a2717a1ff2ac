// rules_cuda's "basic" shape: a cuda_library under a cc_binary.
#include <cstdio>

#include "basic/scale.h"

int main() {
  float x[1000];
  for (int i = 0; i < 1000; i++) x[i] = i;
  int err = scale_on_gpu(2.0f, x, 1000);
  if (err != 0) {
    std::printf("SKIP: no usable CUDA device (CUDA error %d)\n", err);
    return 0;
  }
  for (int i = 0; i < 1000; i++) {
    if (x[i] != 2.0f * i) {
      std::printf("FAIL: x[%d] = %g, want %g\n", i, x[i], 2.0f * i);
      return 1;
    }
  }
  std::printf("PASS: basic\n");
  return 0;
}
