#include <cufft.h>
#include "scale.h"

int main() {
  float *x = nullptr;
  cudaMalloc(&x, 16 * sizeof(float));
  scale<<<1, 16>>>(x, 2.0f, 16);
  cudaFree(x);
  return 0;
}
