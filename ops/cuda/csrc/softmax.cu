// RowSoftmax and RowSoftmaxBackward of ops/cuda: which path a row takes (registers, shared
// memory or global memory) and the C entry points. The paths are in softmax_rows.cuh (rows held
// in registers by a warp or a block) and softmax_long.cuh (a block per longer row).
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#include "ops/cuda/csrc/common.cuh"
#include "ops/cuda/csrc/opscuda.h"
#include "ops/cuda/csrc/softmax_long.cuh"
#include "ops/cuda/csrc/softmax_rows.cuh"

namespace opscuda {
namespace {

template <typename T>
cudaError_t softmax_typed(int device, T* out, const T* x, long long B, long long D, long long s0,
                          long long s1) {
  if (B <= 0 || D <= 0) return cudaSuccess;
  const bool vec = rows_vectorizable<T>(x, D, s0, s1) && rows_vectorizable<T>(out, D, D, 1);
  if (softmax_smem(device, out, x, B, D, s0, vec)) return launched();
  const bool in_registers = with_row_cfg<T, false>(D, [&](auto cfg) {
    using Cfg = decltype(cfg);
    unsigned grid, threads;
    row_launch_dims<Cfg>(B, &grid, &threads);
    if (vec) {
      softmax_rows_kernel<T, Cfg::G, Cfg::VPT, Cfg::ROWS, true>
          <<<grid, threads, 0, stream()>>>(out, x, B, (int)D, s0, s1);
    } else {
      softmax_rows_kernel<T, Cfg::G, Cfg::VPT, Cfg::ROWS, false>
          <<<grid, threads, 0, stream()>>>(out, x, B, (int)D, s0, s1);
    }
  });
  if (in_registers) return launched();
  return launch_rows(softmax_block_kernel<T, true>, softmax_block_kernel<T, false>, device, B,
                     (unsigned long long)D * sizeof(T), out, x, B, D, s0, s1);
}

template <typename T>
cudaError_t softmax_bwd_typed(int device, T* out, const T* g, long long gs0, long long gs1,
                              const T* y, long long ys0, long long ys1, long long B,
                              long long D) {
  if (B <= 0 || D <= 0) return cudaSuccess;
  const bool vec = rows_vectorizable<T>(g, D, gs0, gs1) && rows_vectorizable<T>(y, D, ys0, ys1) &&
                   rows_vectorizable<T>(out, D, D, 1);
  const bool in_registers = with_row_cfg<T, true>(D, [&](auto cfg) {
    using Cfg = decltype(cfg);
    unsigned grid, threads;
    row_launch_dims<Cfg>(B, &grid, &threads);
    if (vec) {
      softmax_bwd_rows_kernel<T, Cfg::G, Cfg::VPT, Cfg::ROWS, true>
          <<<grid, threads, 0, stream()>>>(out, g, gs0, gs1, y, ys0, ys1, B, (int)D);
    } else {
      softmax_bwd_rows_kernel<T, Cfg::G, Cfg::VPT, Cfg::ROWS, false>
          <<<grid, threads, 0, stream()>>>(out, g, gs0, gs1, y, ys0, ys1, B, (int)D);
    }
  });
  if (in_registers) return launched();
  return launch_rows(softmax_bwd_block_kernel<T, true>, softmax_bwd_block_kernel<T, false>, device,
                     B, 2ull * D * sizeof(T), out, g, gs0, gs1, y, ys0, ys1, B, D);
}

}  // namespace
}  // namespace opscuda

using namespace opscuda;

extern "C" int opscuda_row_softmax(opscuda_stream st, int device, int dtype, opscuda_dptr out,
                                   opscuda_dptr x, long long B, long long D, long long s0,
                                   long long s1) {
  cudaError_t err = enter(device, st);
  if (err != cudaSuccess) return (int)err;
  switch (dtype) {
    case OPSCUDA_FLOAT32:
      return (int)softmax_typed<float>(device, mptr<float>(out), cptr<float>(x), B, D, s0, s1);
    case OPSCUDA_FLOAT64:
      return (int)softmax_typed<double>(device, mptr<double>(out), cptr<double>(x), B, D, s0,
                                        s1);
    case OPSCUDA_FLOAT16:
      return (int)softmax_typed<__half>(device, mptr<__half>(out), cptr<__half>(x), B, D, s0, s1);
    case OPSCUDA_BFLOAT16:
      return (int)softmax_typed<__nv_bfloat16>(device, mptr<__nv_bfloat16>(out),
                                               cptr<__nv_bfloat16>(x), B, D, s0, s1);
  }
  return (int)cudaErrorInvalidValue;
}

extern "C" int opscuda_row_softmax_backward(opscuda_stream st, int device, int dtype,
                                            opscuda_dptr out, opscuda_dptr g, long long gs0,
                                            long long gs1, opscuda_dptr y, long long ys0,
                                            long long ys1, long long B, long long D) {
  cudaError_t err = enter(device, st);
  if (err != cudaSuccess) return (int)err;
  switch (dtype) {
    case OPSCUDA_FLOAT32:
      return (int)softmax_bwd_typed<float>(device, mptr<float>(out), cptr<float>(g), gs0, gs1,
                                           cptr<float>(y), ys0, ys1, B, D);
    case OPSCUDA_FLOAT64:
      return (int)softmax_bwd_typed<double>(device, mptr<double>(out), cptr<double>(g), gs0, gs1,
                                            cptr<double>(y), ys0, ys1, B, D);
    case OPSCUDA_FLOAT16:
      return (int)softmax_bwd_typed<__half>(device, mptr<__half>(out), cptr<__half>(g), gs0, gs1,
                                            cptr<__half>(y), ys0, ys1, B, D);
    case OPSCUDA_BFLOAT16:
      return (int)softmax_bwd_typed<__nv_bfloat16>(
          device, mptr<__nv_bfloat16>(out), cptr<__nv_bfloat16>(g), gs0, gs1,
          cptr<__nv_bfloat16>(y), ys0, ys1, B, D);
  }
  return (int)cudaErrorInvalidValue;
}
