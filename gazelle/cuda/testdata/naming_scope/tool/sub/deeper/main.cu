#include <cuda_runtime.h>

int main() { return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1; }
