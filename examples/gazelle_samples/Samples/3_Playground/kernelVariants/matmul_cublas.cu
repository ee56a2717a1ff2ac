// The reference the hand-written variants are compared with: cuBLAS, which only this program links.
#include <helper_blas.h>
#include "common.h"

int main() {
  const int n = 64;
  float *a = nullptr, *c = nullptr;
  SAMPLE_CHECK(device_buffer(&a, n * n));
  SAMPLE_CHECK(device_buffer(&c, n * n));
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 0;  // no usable GPU
  const float one = 1.0f, zero = 0.0f;
  BLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n, &zero, c, n));
  cublasDestroy(handle);
  SAMPLE_CHECK(cudaFree(a));
  SAMPLE_CHECK(cudaFree(c));
  return 0;
}
