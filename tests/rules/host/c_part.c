/* A C source of a cu_library: compiled as C by the C++ toolchain, with the CUDA headers. */
#include <cuda_runtime_api.h>

int c_part_device_count(void) {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
}
