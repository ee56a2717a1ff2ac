// Package nn's optimizer kernels, in place: the AdamW update and scaling (gradient clipping).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "models/gpt2/nn/nn.h"
#include "models/gpt2/nn/nn_common.cuh"

namespace nn {
namespace {

template <typename T>
__global__ void adamw_kernel(T* p, const T* g, T* m, T* v, long long n, T decay, T w, T beta2,
                             T one_minus_beta2, T eps, T step_size, T bc2_sqrt) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    T pi = p[i] * decay;
    const T gi = g[i];
    T mi = m[i];
    mi = w < T(0.5) ? mi + w * (gi - mi) : gi - (gi - mi) * (T(1) - w);
    const T vi = v[i] * beta2 + one_minus_beta2 * gi * gi;
    const T denom = dsqrt(vi) / bc2_sqrt + eps;
    p[i] = pi + (-step_size) * (mi / denom);
    m[i] = mi;
    v[i] = vi;
  }
}

template <typename T>
__global__ void scale_kernel(T* t, long long n, double s) {
  using A = acc_t<T>;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    store(t, i, A(load(t, i)) * A(s));
  }
}

}  // namespace
}  // namespace nn

using namespace nn;

extern "C" int nn_adamw(nn_ptr stream, int device, int dtype, nn_ptr p, nn_ptr g, nn_ptr m, nn_ptr v,
                        long long n, double decay, double beta1, double beta2, double eps,
                        double step_size, double bc2_sqrt) {
  NN_ENTER(device);
  if (n == 0) return 0;
  cudaStream_t s = as_stream(stream);
  const unsigned blocks = blocks_for(n, kThreads);
  switch (dtype) {
    case OPSCUDA_FLOAT32:
      adamw_kernel<float><<<blocks, kThreads, 0, s>>>(
          (float*)p, (const float*)g, (float*)m, (float*)v, n, (float)decay, (float)(1 - beta1),
          (float)beta2, (float)(1 - beta2), (float)eps, (float)step_size, (float)bc2_sqrt);
      break;
    case OPSCUDA_FLOAT64:
      adamw_kernel<double><<<blocks, kThreads, 0, s>>>((double*)p, (const double*)g, (double*)m,
                                                       (double*)v, n, decay, 1 - beta1, beta2,
                                                       1 - beta2, eps, step_size, bc2_sqrt);
      break;
    default:
      return (int)cudaErrorInvalidValue;
  }
  return (int)cudaGetLastError();
}

extern "C" int nn_scale(nn_ptr stream, int device, int dtype, nn_ptr t, long long n, double s_) {
  NN_ENTER(device);
  if (n == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty) scale_kernel<Ty><<<blocks_for(n, kThreads), kThreads, 0, s>>>((Ty*)t, n, s_)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}
