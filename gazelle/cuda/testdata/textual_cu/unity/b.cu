__global__ void b() {}
