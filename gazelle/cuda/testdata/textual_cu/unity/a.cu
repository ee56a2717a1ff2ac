__global__ void a() {}
