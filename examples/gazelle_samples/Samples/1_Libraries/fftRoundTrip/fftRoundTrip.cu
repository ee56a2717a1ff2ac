// Forward and inverse complex FFT with cuFFT; the round trip scales by n.
#include <cufft.h>
#include <helper_check.h>
#include <helper_grid.h>

__global__ void normalize(cufftComplex* v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    v[i].x /= n;
    v[i].y /= n;
  }
}

int main() {
  const int n = 256;
  cufftComplex* v = nullptr;
  SAMPLE_CHECK(cudaMalloc(&v, n * sizeof(cufftComplex)));
  cufftHandle plan;
  if (cufftPlan1d(&plan, n, CUFFT_C2C, 1) != CUFFT_SUCCESS) return 0;
  int bad = cufftExecC2C(plan, v, v, CUFFT_FORWARD) != CUFFT_SUCCESS ||
            cufftExecC2C(plan, v, v, CUFFT_INVERSE) != CUFFT_SUCCESS;
  normalize<<<blocks_for(n, 128), 128>>>(v, n);
  cufftDestroy(plan);
  SAMPLE_CHECK(cudaFree(v));
  return bad;
}
