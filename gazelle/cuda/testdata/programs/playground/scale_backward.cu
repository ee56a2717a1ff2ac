#include "common.h"

__global__ void scale_grad(float* dx, const float* dy, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dx[i] = s * dy[i];
}

int main() {
  int n = 4096;
  float* dy = device_buffer(n);
  float* dx = device_buffer(n);
  scale_grad<<<n / 256, 256>>>(dx, dy, 0.5f, n);
  CHECK(cudaDeviceSynchronize());
  return 0;
}
