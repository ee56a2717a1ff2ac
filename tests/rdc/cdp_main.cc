// Runs the dynamic-parallelism sample on an odd size and checks it against the host. Without a GPU
// it checks only that it linked (the device link with libcudadevrt.a is what is under test).
#include <cmath>
#include <cstdio>
#include <vector>

#include "tests/gpu_gate.h"
#include "tests/rdc/cdp.h"

int main() {
  int count = 0;
  int err = cdp_device_count(&count);
  const int gate = gpu_gate(err, count);
  if (gate >= 0) return gate;
  const int n = 100003;
  std::vector<float> in(n), out(n, -1.0f);
  for (int i = 0; i < n; i++) in[i] = 0.125f * (i % 977) - 7.0f;
  if ((err = cdp_run(in.data(), out.data(), n)) != 0) {
    std::fprintf(stderr, "CUDA error %d (%s)\n", err, cdp_error_name(err));
    return 1;
  }
  for (int i = 0; i < n; i++) {
    const double want = 3.0 * in[i] + 1.0;
    if (std::fabs(out[i] - want) > 1e-6 * (1.0 + std::fabs(want))) {
      std::fprintf(stderr, "out[%d] = %g, want %g\n", i, out[i], want);
      return 1;
    }
  }
  std::printf("%d CUDA device(s): child kernels launched from a kernel gave 3x+1 over %d elements\n", count, n);
  return 0;
}
