#include <cuda_runtime.h>
#include "hostonly/device_info.h"

int device_count_or_zero() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}
