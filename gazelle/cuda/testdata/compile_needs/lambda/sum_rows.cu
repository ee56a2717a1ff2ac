#include <thrust/device_vector.h>
#include <thrust/transform.h>

int main() {
  thrust::device_vector<int> v(4, 1);
  thrust::transform(v.begin(), v.end(), v.begin(), [] __device__ (int x) { return 2 * x; });
  return 0;
}
