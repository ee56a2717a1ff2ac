// main() moved elsewhere; only a kernel is left.
__global__ void k() {}
