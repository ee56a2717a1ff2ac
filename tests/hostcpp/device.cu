#include "tests/hostcpp/device.h"

#include <cuda_runtime_api.h>
#include <thrust/device_vector.h>
#include <thrust/sort.h>

bool sort_on_device(thrust::host_vector<int> &v) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) return false;
  thrust::device_vector<int> d = v;
  thrust::sort(d.begin(), d.end());
  thrust::copy(d.begin(), d.end(), v.begin());
  return true;
}
