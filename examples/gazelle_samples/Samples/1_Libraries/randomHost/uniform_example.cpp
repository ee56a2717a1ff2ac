// Uniform floats with the default pseudo-random generator.
#include "random_utils.h"

int main() {
  const int n = 1024;
  float* v = nullptr;
  SAMPLE_CHECK(cudaMalloc(&v, n * sizeof(float)));
  curandGenerator_t gen;
  if (curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT) != CURAND_STATUS_SUCCESS) return 0;
  RAND_CHECK(curandGenerateUniform(gen, v, n));
  RAND_CHECK(curandDestroyGenerator(gen));
  SAMPLE_CHECK(cudaFree(v));
  return 0;
}
