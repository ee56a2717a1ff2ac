// The simpleSeparateCompilation split across two cu_library targets (mul2, a part, and transform,
// which device-links both). Without a GPU it checks only that it linked.
#include <cstdio>

#include "tests/gpu_gate.h"
#include "tests/rdc/chain.h"

int main() {
  int count = 0;
  int err = rdc_chain_device_count(&count);
  const int gate = gpu_gate(err, count);
  if (gate >= 0) return gate;
  const int n = 1001;
  static float data[n];
  for (int i = 0; i < n; i++) data[i] = 0.5f * i - 7.0f;
  err = rdc_chain(data, n);
  if (err != 0) {
    std::fprintf(stderr, "rdc_chain: CUDA error %d\n", err);
    return 1;
  }
  for (int i = 0; i < n; i++) {
    float want = 2.0f * (0.5f * i - 7.0f);
    if (data[i] != want) {
      std::fprintf(stderr, "data[%d] = %g, want %g\n", i, data[i], want);
      return 1;
    }
  }
  std::printf("%d CUDA device(s): multiplyByTwo from another target doubled %d elements\n", count, n);
  return 0;
}
