// A cuda-samples-style program: arguments parsed with strtol, results checked on the host with
// sqrtf, the math headers, std::thread. Built against the glibc baseline it needs no GLIBC version
// newer than 2.36 whatever the build machine's C library (tests/glibc:glibc_test checks that);
// built against Debian sid's glibc 2.43 it needed __isoc23_strtol@GLIBC_2.38 and sqrtf@GLIBC_2.43.
//
//   samples_style [N]   (default N = 100003)
//
// Without a GPU it says so and exits 0: the test is that it was built and starts.
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "tests/glibc/samples/vector_sqrt.h"
#include "tests/gpu_gate.h"

int main(int argc, char** argv) {
  long n = 100003;
  if (argc > 1) {
    char* end = nullptr;
    errno = 0;
    n = std::strtol(argv[1], &end, 10);
    if (errno != 0 || *end != '\0' || n < 0 || n > (1L << 28)) {
      std::fprintf(stderr, "samples_style: N must be an integer in [0, 2^28], got '%s'\n", argv[1]);
      return 2;
    }
  }
  int count = 0;
  int err = vs_device_count(&count);
  const int gate = gpu_gate(err, count);
  if (gate >= 0) return gate;

  std::vector<float> x(n), y(n);
  std::thread fill([&] {
    for (long i = 0; i < n; i++) x[i] = 0.5f * static_cast<float>(i % 4099);
  });
  fill.join();
  if ((err = vs_sqrt(x.data(), y.data(), static_cast<int>(n))) != 0) {
    std::fprintf(stderr, "CUDA error %d (%s)\n", err, vs_error_name(err));
    return 1;
  }
  long bad = 0;
  for (long i = 0; i < n; i++) {
    const float want = sqrtf(x[i]);
    if (std::fabs(y[i] - want) > 2e-7f * (1.0f + want)) {
      if (bad++ < 5) std::fprintf(stderr, "y[%ld] = %.9g, want %.9g\n", i, y[i], want);
    }
  }
  char gpu[256] = "";
  vs_describe(gpu, sizeof gpu);
  std::printf("%s: sqrt of %ld floats on %s, %ld mismatches\n", bad ? "FAIL" : "PASS", n, gpu, bad);
  return bad ? 1 : 0;
}
