// Normal floats from a quasi-random (Sobol) generator.
#include "random_utils.h"

int main() {
  const int n = 1024;
  float* v = nullptr;
  SAMPLE_CHECK(cudaMalloc(&v, n * sizeof(float)));
  curandGenerator_t gen;
  if (curandCreateGenerator(&gen, CURAND_RNG_QUASI_SOBOL32) != CURAND_STATUS_SUCCESS) return 0;
  RAND_CHECK(curandGenerateNormal(gen, v, n, 0.0f, 1.0f));
  RAND_CHECK(curandDestroyGenerator(gen));
  SAMPLE_CHECK(cudaFree(v));
  return 0;
}
