__global__ void k(float* x) { x[threadIdx.x] += 1.0f; }
