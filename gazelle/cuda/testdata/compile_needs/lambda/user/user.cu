#include <thrust/device_vector.h>
#include <thrust/for_each.h>

void twice(thrust::device_vector<int> &v) {
  thrust::for_each(v.begin(), v.end(), [=] __host__ __device__ (int &x) { x *= 2; });
}
