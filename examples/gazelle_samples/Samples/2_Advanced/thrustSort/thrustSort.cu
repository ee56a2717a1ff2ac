// Sorts descending keys with Thrust and checks the order.
#include <thrust/device_vector.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <cuda_runtime.h>

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return 0;
  thrust::device_vector<int> keys(1000);
  thrust::sequence(keys.begin(), keys.end(), 1000, -1);
  thrust::sort(keys.begin(), keys.end());
  return keys[0] == 1 ? 0 : 1;
}
