// rules_cuda's "if_cuda" shape: CUDA code only where --@rules_cuda//cuda:enable is on.
#include <cstdio>

#ifdef WITH_CUDA
#include "if_cuda/fill.h"
#endif

int main() {
#ifdef WITH_CUDA
  int out[100];
  int err = fill_on_gpu(out, 100, 7);
  if (err != 0) {
    std::printf("cuda enabled; SKIP: no usable CUDA device (CUDA error %d)\n", err);
    return 0;
  }
  for (int i = 0; i < 100; i++) {
    if (out[i] != 7) {
      std::printf("FAIL: out[%d] = %d\n", i, out[i]);
      return 1;
    }
  }
  std::printf("cuda enabled; PASS\n");
#else
  std::printf("cuda disabled\n");
#endif
  return 0;
}
