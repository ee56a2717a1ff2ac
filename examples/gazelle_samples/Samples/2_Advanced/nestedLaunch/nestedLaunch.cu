// A kernel that halves its range and launches itself on each half (dynamic parallelism).
#include <helper_check.h>

__global__ void fill_range(int* v, int lo, int hi, int depth) {
  if (hi - lo <= 32 || depth == 0) {
    for (int i = lo + threadIdx.x; i < hi; i += blockDim.x) v[i] = depth;
    return;
  }
  if (threadIdx.x == 0) {
    int mid = lo + (hi - lo) / 2;
    fill_range<<<1, 32>>>(v, lo, mid, depth - 1);
    fill_range<<<1, 32>>>(v, mid, hi, depth - 1);
  }
}

int main() {
  int* v = nullptr;
  SAMPLE_CHECK(cudaMalloc(&v, 1024 * sizeof(int)));
  fill_range<<<1, 32>>>(v, 0, 1024, 3);
  SAMPLE_CHECK(cudaDeviceSynchronize());
  SAMPLE_CHECK(cudaFree(v));
  return 0;
}
