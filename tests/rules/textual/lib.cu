__global__ void lib_kernel(float* x) { x[threadIdx.x] = TEXTUAL_LOCAL; }
