// AsType's kernel: out (contiguous, of the output dtype) = in (strided, of the input dtype)
// converted elementwise, for every ordered pair of the four dtypes. Widening is exact; narrowing
// rounds to nearest even, from float64 to a 16-bit type through float32, as the CPU does
// (ops/astype.go), so both give the same bits.
#include <cuda_runtime.h>
#include <stdint.h>

#include "ops/cuda/csrc/common.cuh"
#include "ops/cuda/csrc/opscuda.h"

namespace opscuda {
namespace {

constexpr int kThreads = 256;

// One element per thread; the grid covers the problem (cover()).
template <typename TO, typename TI, typename I, bool Contiguous>
__global__ void __launch_bounds__(kThreads)
    convert_kernel(TO* __restrict__ out, const TI* __restrict__ in, Strides<1> s, I n) {
  const I step = (I)gridDim.x * blockDim.x;
  for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
    I off[1] = {i};
    if constexpr (!Contiguous) offsets(i, s, off);
    out[i] = from_wide<TO>(to_wide(in[off[0]]));
    if constexpr (kOnce<I>) break;
  }
}

template <typename TO, typename TI>
cudaError_t convert_typed(const Ew* e) {
  const long long n = e->n;
  const Strides<1> s = strides_of<1>(e);
  const unsigned grid = cover((unsigned long long)n, kThreads);
  TO* out = mptr<TO>(e->out);
  const TI* in = cptr<TI>(e->in[0]);
  const bool small = fits32(extent(e));
  if (contiguous(e) && small) {
    convert_kernel<TO, TI, uint32_t, true><<<grid, kThreads, 0, stream()>>>(out, in, s, (uint32_t)n);
  } else if (contiguous(e)) {
    convert_kernel<TO, TI, uint64_t, true><<<grid, kThreads, 0, stream()>>>(out, in, s, (uint64_t)n);
  } else if (small) {
    convert_kernel<TO, TI, uint32_t, false><<<grid, kThreads, 0, stream()>>>(out, in, s, (uint32_t)n);
  } else {
    convert_kernel<TO, TI, uint64_t, false><<<grid, kThreads, 0, stream()>>>(out, in, s, (uint64_t)n);
  }
  return launched();
}

template <typename TI>
cudaError_t convert_from(const Ew* e, int out_dtype) {
  switch (out_dtype) {
    case OPSCUDA_FLOAT32:
      return convert_typed<float, TI>(e);
    case OPSCUDA_FLOAT64:
      return convert_typed<double, TI>(e);
    case OPSCUDA_FLOAT16:
      return convert_typed<__half, TI>(e);
    case OPSCUDA_BFLOAT16:
      return convert_typed<__nv_bfloat16, TI>(e);
  }
  return cudaErrorInvalidValue;
}

}  // namespace
}  // namespace opscuda

using namespace opscuda;

extern "C" int opscuda_convert(OPSCUDA_EW, int out_dtype) {
  OPSCUDA_EW_PROBLEM(e);
  if (e->nin != 1 || e->ndim < 1 || e->ndim > kMaxDims || dtype_size(out_dtype) == 0) {
    return (int)cudaErrorInvalidValue;
  }
  cudaError_t err = enter(e->device, st);
  if (err != cudaSuccess) return (int)err;
  if (e->n <= 0) return 0;
  switch (e->dtype) {
    case OPSCUDA_FLOAT32:
      return (int)convert_from<float>(e, out_dtype);
    case OPSCUDA_FLOAT64:
      return (int)convert_from<double>(e, out_dtype);
    case OPSCUDA_FLOAT16:
      return (int)convert_from<__half>(e, out_dtype);
    case OPSCUDA_BFLOAT16:
      return (int)convert_from<__nv_bfloat16>(e, out_dtype);
  }
  return (int)cudaErrorInvalidValue;
}
