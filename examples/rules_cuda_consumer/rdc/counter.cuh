#pragma once

// Defined in counter.cu, called from kernels in other translation units (relocatable device code).
extern __device__ int counter;
__device__ void bump(int by);
