// A program on the driver API linked with @cuda//:cuda_driver_lazy: it NEEDs no libcuda.so.1 and
// starts anywhere. Without a driver the calls return CUDA_ERROR_NO_DEVICE and cuGetErrorString
// still describes it; with one they reach the driver (cuDriverGetVersion, cuInit).
#include <cuda.h>
#include <stdio.h>

int main(void) {
  CUresult r = cuInit(0);
  const char *what = NULL, *name = NULL;
  if (cuGetErrorString(r, &what) != CUDA_SUCCESS || cuGetErrorName(r, &name) != CUDA_SUCCESS || !what || !name) {
    printf("cuGetErrorString/cuGetErrorName failed for %d\n", (int)r);
    return 1;
  }
  int version = 0;
  CUresult v = cuDriverGetVersion(&version);
  printf("cuInit: %s (%s); cuDriverGetVersion: %d, %d\n", name, what, (int)v, version);
  if (r == CUDA_SUCCESS) {
    int n = 0;
    if (cuDeviceGetCount(&n) != CUDA_SUCCESS || n < 1) return 1;
    return v == CUDA_SUCCESS && version > 0 ? 0 : 1;
  }
  // No GPU (the driver says 100) or no driver (the library says 100): started, and said so.
  return r == CUDA_ERROR_NO_DEVICE ? 0 : 1;
}
