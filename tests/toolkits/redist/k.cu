// Analysis-only kernel for the fixture toolkit (its nvcc compiles nothing).
__global__ void k(float* x) { x[threadIdx.x] += 1.0f; }
