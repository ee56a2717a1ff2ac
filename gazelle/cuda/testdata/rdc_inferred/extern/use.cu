#include "counter.cuh"

__global__ void count(float* v) {
  atomicAdd(&hits, 1u);
  v[threadIdx.x] = scaled(v[threadIdx.x]);
}
