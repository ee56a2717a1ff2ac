#include <curand_kernel.h>

__global__ void init_rng(curandState* s, unsigned long long seed) {
    curand_init(seed, threadIdx.x, 0, &s[threadIdx.x]);
}
