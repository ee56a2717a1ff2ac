// Plain host C++ (no __NVCC__) that includes Thrust and calls a function of a .cu with a Thrust
// type: it compiles as host code and links with the CUDA source (the same ABI namespace).
#include <cstdio>

#include "tests/hostcpp/device.h"

int main() {
  thrust::host_vector<int> v(4);
  v[0] = 3, v[1] = 1, v[2] = 4, v[3] = 2;
  if (!sort_on_device(v)) {
    std::printf("no CUDA device: linked and started\n");
    return 0;
  }
  for (int i = 0; i < 4; i++) {
    if (v[i] != i + 1) {
      std::printf("v[%d] = %d, want %d\n", i, v[i], i + 1);
      return 1;
    }
  }
  std::printf("sorted on the GPU\n");
  return 0;
}
