#include <cublas_v2.h>
#include "sample_utils.h"

int main() {
  cublasHandle_t h;
  SAMPLE_CHECK(cublasCreate(&h));
  SAMPLE_CHECK(cublasDestroy(h));
  return 0;
}
