// rules_cuda's "cublas" shape: a cc_binary on @cuda//:cublas.
#include <cstdio>

#include <cublas_v2.h>
#include <cuda_runtime.h>

int main() {
  cublasHandle_t handle;
  cublasStatus_t st = cublasCreate(&handle);
  if (st != CUBLAS_STATUS_SUCCESS) {
    std::printf("SKIP: cublasCreate: %d (no usable CUDA device)\n", st);
    return 0;
  }
  const int n = 100;
  float x[n], *d = nullptr;
  for (int i = 0; i < n; i++) x[i] = 1.0f;
  cudaMalloc(&d, sizeof(x));
  cudaMemcpy(d, x, sizeof(x), cudaMemcpyHostToDevice);
  float dot = 0;
  st = cublasSdot(handle, n, d, 1, d, 1, &dot);
  cudaFree(d);
  cublasDestroy(handle);
  if (st != CUBLAS_STATUS_SUCCESS || dot != n) {
    std::printf("FAIL: cublasSdot: status %d, dot %g, want %d\n", st, dot, n);
    return 1;
  }
  std::printf("PASS: cublas\n");
  return 0;
}
