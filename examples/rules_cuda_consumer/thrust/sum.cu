// rules_cuda's "thrust" shape: Thrust through @cuda//:thrust.
#include <cstdio>

#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>

extern "C" int thrust_main() {
  try {
    thrust::device_vector<int> v(1000);
    thrust::sequence(v.begin(), v.end());
    int sum = thrust::reduce(v.begin(), v.end());
    if (sum != 999 * 1000 / 2) {
      std::printf("FAIL: sum = %d, want %d\n", sum, 999 * 1000 / 2);
      return 1;
    }
  } catch (const std::exception& e) {
    std::printf("SKIP: no usable CUDA device (%s)\n", e.what());
    return 0;
  }
  std::printf("PASS: thrust\n");
  return 0;
}
