// cuRAND through @cuda//:curand: the host API, which generates on the CPU (no GPU needed).
#include <curand.h>

#include "tests/libs/libs.h"

extern "C" int libs_curand_uniform_host(unsigned long long seed, float* out, size_t n, int* detail) {
  *detail = 0;
  if (!out && n > 0) return LIBS_BAD_ARGS;
  curandGenerator_t gen = nullptr;
  curandStatus_t st = curandCreateGeneratorHost(&gen, CURAND_RNG_PSEUDO_PHILOX4_32_10);
  if (st == CURAND_STATUS_SUCCESS) st = curandSetPseudoRandomGeneratorSeed(gen, seed);
  if (st == CURAND_STATUS_SUCCESS && n > 0) st = curandGenerateUniform(gen, out, n);
  if (gen) {
    curandStatus_t d = curandDestroyGenerator(gen);
    if (st == CURAND_STATUS_SUCCESS) st = d;
  }
  *detail = (int)st;
  return st == CURAND_STATUS_SUCCESS ? LIBS_OK : LIBS_CURAND_ERROR;
}
