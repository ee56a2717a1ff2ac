// Forward ReLU, two kernel variants timed against each other.
#include "common.h"

__global__ void relu_v1(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] > 0.f ? in[i] : 0.f;
}

int main(int argc, char** argv) {
  int n = 1 << 20;
  float* in = device_buffer(n);
  float* out = device_buffer(n);
  relu_v1<<<(n + 255) / 256, 256>>>(out, in, n);
  CHECK(cudaDeviceSynchronize());
  return 0;
}
