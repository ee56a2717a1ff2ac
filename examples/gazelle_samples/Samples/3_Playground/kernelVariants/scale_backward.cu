// The gradient of y = s * x.
#include "common.h"

__global__ void scale_grad(float* dx, const float* dy, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dx[i] = s * dy[i];
}

int main() {
  const int n = 4096;
  float *dy = nullptr, *dx = nullptr;
  SAMPLE_CHECK(device_buffer(&dy, n));
  SAMPLE_CHECK(device_buffer(&dx, n));
  scale_grad<<<blocks(n), 256>>>(dx, dy, 0.5f, n);
  SAMPLE_CHECK(cudaDeviceSynchronize());
  SAMPLE_CHECK(cudaFree(dy));
  SAMPLE_CHECK(cudaFree(dx));
  return 0;
}
