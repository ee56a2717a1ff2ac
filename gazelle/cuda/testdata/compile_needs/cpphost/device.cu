#include <thrust/device_vector.h>

int device_sum(const int *v, int n) {
  thrust::device_vector<int> d(v, v + n);
  return thrust::reduce(d.begin(), d.end());
}
