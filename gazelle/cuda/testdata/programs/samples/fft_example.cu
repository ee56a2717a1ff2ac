#include "fft_utils.hpp"

int main() {
  cufftHandle plan;
  SAMPLE_CHECK(cufftPlan1d(&plan, 256, CUFFT_C2C, 1));
  std::printf("%s\n", fft_status(cufftDestroy(plan)));
  return 0;
}
