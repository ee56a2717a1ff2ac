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

struct Layout {
  int ndim;
  long long sizes[kMaxDims];
  long long strides[kMaxDims];
};

// One element per thread; the grid covers the problem (a grid-stride loop takes over past 2^31-1
// blocks, which only 64-bit problems reach).
template <typename TO, typename TI, typename I, bool Contiguous>
__global__ void __launch_bounds__(kThreads)
    convert_kernel(TO* __restrict__ out, const TI* __restrict__ in, Layout l, I n) {
  const I step = (I)gridDim.x * blockDim.x;
  for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
    I off = i;
    if constexpr (!Contiguous) {
      off = 0;
      I rem = i;
#pragma unroll
      for (int d = kMaxDims - 1; d >= 0; d--) {
        if (d < l.ndim) {
          const I size = (I)l.sizes[d];
          off += (rem % size) * (I)l.strides[d];
          rem /= size;
        }
      }
    }
    out[i] = from_wide<TO>(to_wide(in[off]));
  }
}

template <typename TO, typename TI>
cudaError_t convert_typed(const opscuda_ew* e) {
  const long long n = e->n;
  Layout l;
  l.ndim = e->ndim;
  bool contiguous = e->ndim == 1 && e->strides[0][0] == 1;
  unsigned long long extent = (unsigned long long)n;
  for (int d = 0; d < kMaxDims; d++) {
    l.sizes[d] = d < e->ndim ? e->sizes[d] : 1;
    l.strides[d] = d < e->ndim ? e->strides[0][d] : 0;
    if (d < e->ndim) extent += (unsigned long long)(l.sizes[d] - 1) * (unsigned long long)l.strides[d];
  }
  unsigned long long blocks = ((unsigned long long)n + kThreads - 1) / kThreads;
  const unsigned grid = blocks > 0x7fffffffull ? 0x7fffffffu : (unsigned)blocks;
  TO* out = mptr<TO>(e->out);
  const TI* in = cptr<TI>(e->in[0]);
  const bool small = extent <= 0x7fffffffull;
  if (contiguous && small) {
    convert_kernel<TO, TI, uint32_t, true><<<grid, kThreads, 0, stream()>>>(out, in, l, (uint32_t)n);
  } else if (contiguous) {
    convert_kernel<TO, TI, uint64_t, true><<<grid, kThreads, 0, stream()>>>(out, in, l, (uint64_t)n);
  } else if (small) {
    convert_kernel<TO, TI, uint32_t, false><<<grid, kThreads, 0, stream()>>>(out, in, l, (uint32_t)n);
  } else {
    convert_kernel<TO, TI, uint64_t, false><<<grid, kThreads, 0, stream()>>>(out, in, l, (uint64_t)n);
  }
  return launched();
}

template <typename TI>
cudaError_t convert_from(const opscuda_ew* e, int out_dtype) {
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

extern "C" int opscuda_convert(opscuda_stream st, const opscuda_ew* e, int out_dtype) {
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
