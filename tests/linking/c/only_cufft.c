// Depends on cuBLAS, cuFFT and NVRTC (BUILD.bazel) and calls cuFFT only: linked as
// needed, it NEEDs libcufft.so.<major> and no other CUDA library. Runs without a GPU.
#include <cufft.h>
#include <stdio.h>

int main(void) {
  int version = 0;
  cufftResult r = cufftGetVersion(&version);
  if (r != CUFFT_SUCCESS) {
    fprintf(stderr, "cufftGetVersion: error %d\n", (int)r);
    return 1;
  }
  printf("cuFFT %d\n", version);
  return 0;
}
