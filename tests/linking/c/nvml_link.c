// NVML through @cuda//:nvml: linked against a stub generated from nvml.h, it NEEDs the driver's
// libnvidia-ml.so.1 (so it starts only where the NVIDIA driver is installed).
#include <nvml.h>
#include <stdio.h>

int main(void) {
  nvmlReturn_t r = nvmlInit();
  if (r != NVML_SUCCESS) {
    fprintf(stderr, "nvmlInit: %s\n", nvmlErrorString(r));
    return 1;
  }
  unsigned int n = 0;
  r = nvmlDeviceGetCount(&n);
  printf("nvmlDeviceGetCount: %s, %u devices\n", nvmlErrorString(r), n);
  nvmlShutdown();
  return r == NVML_SUCCESS ? 0 : 1;
}
