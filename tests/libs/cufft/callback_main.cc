// A static cuFFT with a load callback, checked against a float64 DFT on the CPU. Without a GPU it
// checks only that it linked (the device link of libcufft_static.a with the callback).
#include <cmath>
#include <cstdio>
#include <vector>

#include "tests/gpu_gate.h"
#include "tests/libs/cufft/callback.h"

int main() {
  int count = 0;
  int err = fft_device_count(&count);
  const int gate = gpu_gate(err, count);
  if (gate >= 0) return gate;
  const int sizes[] = {1, 7, 1000, 1023};
  for (int n : sizes) {
    std::vector<float> in(n), out(2 * (n / 2 + 1));
    for (int i = 0; i < n; i++) in[i] = std::sin(0.37f * i) + 0.01f * (i % 13);
    const float scale = 2.5f;
    int rc = fft_scaled(in.data(), n, scale, out.data());
    if (rc != 0) {
      std::fprintf(stderr, "n=%d: fft_scaled returned %d (negative: cudaError_t, positive: cufftResult)\n", n, rc);
      return 1;
    }
    double max_err = 0, max_mag = 1;
    for (int k = 0; k <= n / 2; k++) {
      double re = 0, im = 0;
      for (int i = 0; i < n; i++) {
        double a = -2.0 * M_PI * static_cast<double>(k) * i / n;
        re += scale * in[i] * std::cos(a);
        im += scale * in[i] * std::sin(a);
      }
      max_mag = std::fmax(max_mag, std::hypot(re, im));
      max_err = std::fmax(max_err, std::hypot(out[2 * k] - re, out[2 * k + 1] - im));
    }
    // float32 FFT against a float64 DFT: relative to the largest magnitude.
    if (max_err > 1e-4 * max_mag * std::log2(2.0 * n)) {
      std::fprintf(stderr, "n=%d: max error %g (largest magnitude %g)\n", n, max_err, max_mag);
      return 1;
    }
    std::printf("n=%d: callback-scaled FFT matches the float64 DFT (max error %.3g of %.3g)\n", n, max_err, max_mag);
  }
  std::printf("%d CUDA device(s): static cuFFT with a load callback OK\n", count);
  return 0;
}
