#include "tally.cuh"

__device__ unsigned int tally_total = 0;

__device__ void tally_add(unsigned int k) { atomicAdd(&tally_total, k); }
