// The diamond (top -> left, right -> base), device-linked once by a cu_device_link for this
// cc_binary. Checks base's __device__ variable is one object: setting it from the host changes
// what both left_op and right_op read. Without a GPU it checks only that it linked.
#include <cmath>
#include <cstdio>

#include "tests/gpu_gate.h"
#include "tests/rdc/diamond.h"

int main() {
  int count = 0;
  int err = rdc_device_count(&count);
  const int gate = gpu_gate(err, count);
  if (gate >= 0) return gate;
  const int n = 777;
  static float in[n], out[n];
  for (int i = 0; i < n; i++) in[i] = 0.25f * i - 3.0f;
  const float factors[] = {1.0f, 2.5f};
  for (float f : factors) {
    if ((err = rdc_set_factor(f)) != 0 || (err = rdc_diamond(in, out, n)) != 0) {
      std::fprintf(stderr, "CUDA error %d (%s)\n", err, rdc_error_name(err));
      return 1;
    }
    for (int i = 0; i < n; i++) {
      double want = 4.0 * f * in[i] + 1.0;
      if (std::fabs(out[i] - want) > 1e-5 * (1.0 + std::fabs(want))) {
        std::fprintf(stderr, "factor %g: out[%d] = %g, want %g\n", f, i, out[i], want);
        return 1;
      }
    }
  }
  std::printf("%d CUDA device(s): diamond gave 4*f*x+1 for f = 1, 2.5 over %d elements\n", count, n);
  return 0;
}
