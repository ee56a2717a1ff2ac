// fuse chain "outputs3": 2 inputs, 3 outputs, layout linear, long long indices.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

extern "C" __global__ void __launch_bounds__(256)
fuse_outputs3_469d24322caa(double* __restrict__ o0,
    double* __restrict__ o1,
    double* __restrict__ o2,
    const double* __restrict__ i0,
    const double* __restrict__ i1,
    long long n_) {
  typedef long long I;
  const I n = (I)n_;
  const I step = (I)gridDim.x * blockDim.x;
  for (I g = (I)blockIdx.x * blockDim.x + threadIdx.x; g < n; g += step) {
      const double x0 = i0[g];
      const double x1 = i1[g];
      double y0;
      double y1;
      double y2;
      const double t0 = x0;  // In(0)
      const double t1 = x1;  // In(1)
      const double t2 = t0 + t1;  // Add
      const double t3 = t0 * t1;  // Mul
      const double t4 = t0 - t1;  // Sub
      const double t5 = tanh(t4);  // Tanh
      y0 = t2;
      y1 = t3;
      y2 = t5;
      o0[g] = y0;
      o1[g] = y1;
      o2[g] = y2;
  }
}
