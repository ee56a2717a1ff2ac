__device__ float square(float x);
__device__ float square(float x) { return x * x; }

__global__ void reduce(const float* in, float* out) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = square(in[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}

namespace host {
void run(const float* in, float* out) { reduce<<<1, 32, 32 * sizeof(float)>>>(in, out); }
}  // namespace host
