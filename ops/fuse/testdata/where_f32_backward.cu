// fuse chain "where_grad0": 3 inputs, 2 outputs, layout vector (4 elements per thread), int indices.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

template <typename T, int N>
struct alignas(sizeof(T) * N) Pack { T v[N]; };

extern "C" __global__ void __launch_bounds__(256)
fuse_where_grad0_acb7a14a725c(float* __restrict__ o0,
    float* __restrict__ o1,
    const float* __restrict__ i0,
    const float* __restrict__ i1,
    const float* __restrict__ i2,
    long long n_,
    double s0,
    double s1,
    double s2) {
  typedef int I;
  const I n = (I)n_;
  const I nvec = n / 4;
  {
    const I g = (I)blockIdx.x * blockDim.x + threadIdx.x;
    if (g < nvec) {
    const Pack<float, 4> a0 = reinterpret_cast<const Pack<float, 4>*>(i0)[g];
    const Pack<float, 4> a1 = reinterpret_cast<const Pack<float, 4>*>(i1)[g];
    const Pack<float, 4> a2 = reinterpret_cast<const Pack<float, 4>*>(i2)[g];
    Pack<float, 4> r0;
    Pack<float, 4> r1;
#pragma unroll
    for (int e = 0; e < 4; e++) {
      const float x0 = a0.v[e];
      const float x1 = a1.v[e];
      const float x2 = a2.v[e];
      float y0;
      float y1;
      const float t0 = x0;  // In(0)
      const double t1 = s0;  // Const
      const float t2 = (t0 > (float)t1) ? (float)1 : (float)0;  // Gt
      const float t3 = x2;  // In(2)
      const double t4 = s1;  // Const
      const float t5 = (t2 != 0) ? t3 : (float)t4;  // Where
      const double t6 = s2;  // Const
      const float t7 = t5 * (float)t6;  // Mul
      const float t8 = (t2 != 0) ? (float)t4 : t3;  // Where
      y0 = t7;
      y1 = t8;
      r0.v[e] = y0;
      r1.v[e] = y1;
    }
    reinterpret_cast<Pack<float, 4>*>(o0)[g] = r0;
    reinterpret_cast<Pack<float, 4>*>(o1)[g] = r1;
    }
  }
  {
    const I g = nvec * 4 + (I)blockIdx.x * blockDim.x + threadIdx.x;
    if (g < n) {
      const float x0 = i0[g];
      const float x1 = i1[g];
      const float x2 = i2[g];
      float y0;
      float y1;
      const float t0 = x0;  // In(0)
      const double t1 = s0;  // Const
      const float t2 = (t0 > (float)t1) ? (float)1 : (float)0;  // Gt
      const float t3 = x2;  // In(2)
      const double t4 = s1;  // Const
      const float t5 = (t2 != 0) ? t3 : (float)t4;  // Where
      const double t6 = s2;  // Const
      const float t7 = t5 * (float)t6;  // Mul
      const float t8 = (t2 != 0) ? (float)t4 : t3;  // Where
      y0 = t7;
      y1 = t8;
      o0[g] = y0;
      o1[g] = y1;
    }
  }
}
