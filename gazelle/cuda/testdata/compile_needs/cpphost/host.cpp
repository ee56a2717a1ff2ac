#include <thrust/host_vector.h>

int device_sum(const int *v, int n);

int main() {
  thrust::host_vector<int> h(4, 1);
  return device_sum(h.data(), 4) == 4 ? 0 : 1;
}
