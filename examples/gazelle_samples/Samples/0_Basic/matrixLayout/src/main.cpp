#include <cuda_runtime.h>
#include <helper_check.h>
#include "layout.h"

int main() {
  RowMajor a{64, 32, nullptr}, b{32, 64, nullptr};
  SAMPLE_CHECK(cudaMalloc(&a.data, 64 * 32 * sizeof(float)));
  SAMPLE_CHECK(cudaMalloc(&b.data, 64 * 32 * sizeof(float)));
  SAMPLE_CHECK(static_cast<cudaError_t>(transpose_on_device(a, b)));
  SAMPLE_CHECK(cudaFree(a.data));
  SAMPLE_CHECK(cudaFree(b.data));
  return 0;
}
