// The simpleSeparateCompilation split across two cu_library targets (mul2, a part, and transform,
// which device-links both). Without a GPU it checks only that it linked.
#include <cstdio>

#include "tests/rdc/chain.h"

int main() {
  int count = 0;
  int err = rdc_chain_device_count(&count);
  // cudaErrorInsufficientDriver (35), cudaErrorNoDevice (100): no usable GPU here.
  if (err == 35 || err == 100) {
    std::printf("no CUDA device (error %d): linked, GPU part skipped\n", err);
    return 0;
  }
  if (err != 0 || count == 0) {
    std::fprintf(stderr, "cudaGetDeviceCount: error %d, %d devices\n", err, count);
    return 1;
  }
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
