// y = alpha * x + y with cuBLAS.
#include <helper_blas.h>
#include <helper_check.h>

int main() {
  const int n = 1024;
  float *x = nullptr, *y = nullptr;
  SAMPLE_CHECK(cudaMalloc(&x, n * sizeof(float)));
  SAMPLE_CHECK(cudaMalloc(&y, n * sizeof(float)));
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 0;  // no usable GPU
  BLAS_CHECK(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));
  const float alpha = 0.5f;
  int bad = cublasSaxpy(handle, n, &alpha, x, 1, y, 1) != CUBLAS_STATUS_SUCCESS;
  cublasDestroy(handle);
  SAMPLE_CHECK(cudaFree(x));
  SAMPLE_CHECK(cudaFree(y));
  return bad;
}
