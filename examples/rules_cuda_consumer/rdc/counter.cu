#include "rdc/counter.cuh"

__device__ int counter;

__device__ void bump(int by) { atomicAdd(&counter, by); }
