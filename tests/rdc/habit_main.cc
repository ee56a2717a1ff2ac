// The nvcc habit: rdc = True on twice (a library of __device__ functions and a __device__
// variable) and on habit (whose kernel calls twice), both with the default device_link = True.
// habit's device link takes twice's code over, so that the variable exists once: the factor that
// twice's host code sets is the one habit's kernel reads. Without a GPU it checks that it linked.
#include <cstdio>

#include "tests/gpu_gate.h"
#include "tests/rdc/habit.h"

int main() {
  int count = 0;
  int err = rdc_habit_device_count(&count);
  const int gate = gpu_gate(err, count);
  if (gate >= 0) return gate;
  const int n = 1001;
  static float data[n];
  const float factors[] = {2.0f, 3.0f};
  for (float factor : factors) {
    if (factor != 2.0f && (err = set_twice_factor(factor)) != 0) {
      std::fprintf(stderr, "set_twice_factor: CUDA error %d\n", err);
      return 1;
    }
    for (int i = 0; i < n; i++) data[i] = 0.5f * i - 7.0f;
    if ((err = rdc_habit(data, n)) != 0) {
      std::fprintf(stderr, "rdc_habit: CUDA error %d\n", err);
      return 1;
    }
    for (int i = 0; i < n; i++) {
      float want = factor * (0.5f * i - 7.0f);
      if (data[i] != want) {
        std::fprintf(stderr, "factor %g: data[%d] = %g, want %g\n", factor, i, data[i], want);
        return 1;
      }
    }
  }
  std::printf("%d CUDA device(s): twice from another rdc library, factor 2 then 3, on %d elements\n", count, n);
  return 0;
}
