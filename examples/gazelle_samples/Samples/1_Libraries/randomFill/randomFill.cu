// Uniform random numbers from the cuRAND host API, and per-thread normals from its device API.
#include <curand.h>
#include <curand_kernel.h>
#include <helper_check.h>

__global__ void normals(float* out, unsigned long long seed) {
  curandStatePhilox4_32_10_t state;
  curand_init(seed, threadIdx.x, 0, &state);
  out[threadIdx.x] = curand_normal(&state);
}

int main() {
  const int n = 512;
  float* v = nullptr;
  SAMPLE_CHECK(cudaMalloc(&v, n * sizeof(float)));
  curandGenerator_t gen;
  if (curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT) != CURAND_STATUS_SUCCESS) return 0;
  int bad = curandGenerateUniform(gen, v, n) != CURAND_STATUS_SUCCESS;
  curandDestroyGenerator(gen);
  normals<<<1, 128>>>(v, 7ull);
  SAMPLE_CHECK(cudaFree(v));
  return bad;
}
