// Compared with cuBLAS: only this program needs it.
#include <cublas_v2.h>
#include "common.h"

int main() {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1;
  float* a = device_buffer(64 * 64);
  cublasDestroy(h);
  return a == nullptr;
}
