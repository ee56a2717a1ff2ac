// ReLU forward, two variants: one element per thread, and a grid-stride loop.
#include "common.h"

__global__ void relu_one(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] > 0.f ? in[i] : 0.f;
}

__global__ void relu_stride(float* out, const float* in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    out[i] = in[i] > 0.f ? in[i] : 0.f;
  }
}

int main() {
  const int n = 1 << 16;
  float *in = nullptr, *out = nullptr;
  SAMPLE_CHECK(device_buffer(&in, n));
  SAMPLE_CHECK(device_buffer(&out, n));
  relu_one<<<blocks(n), 256>>>(out, in, n);
  relu_stride<<<32, 256>>>(out, in, n);
  SAMPLE_CHECK(cudaDeviceSynchronize());
  SAMPLE_CHECK(cudaFree(in));
  SAMPLE_CHECK(cudaFree(out));
  return 0;
}
