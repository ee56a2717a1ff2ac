// Elementwise kernels of ops/cuda: AddScalar, Scale, Axpby, Polynomial, PolynomialBackward,
// NormBackward, Contiguous (strided gather) and NarrowBackward.
//
// Each op is a functor computing in double for float32 and float64 data (like the CPU kernels,
// which round once to the output type) and in float for float16 and bfloat16 data (loaded as
// float, rounded to nearest even when stored), run by one of three kernels:
//   - vectorized: every operand contiguous and 16-byte aligned: 16-byte loads/stores (float4 /
//     double2 / 8 halves), the tail (fewer than one vector) done by the first threads;
//   - contiguous: scalar loads (an operand at an offset that breaks the alignment);
//   - strided: each input indexed through its own strides (dimensions merged on the Go side).
// The grid covers the problem, one vector or element per thread (a grid-stride loop takes over
// only past 2^31-1 blocks), and indices are 32-bit whenever everything fits. Measured on an H100
// at 2^28 elements, a kernel shaped so reaches 100.4-101.9% of cudaMemcpyAsync's device-to-device
// bandwidth in float32, float16 and bfloat16, where a grid of 64 blocks per SM whose threads loop
// reached 95.5-97.3%; for 4096 float32 elements in a CUDA graph, the 32-bit index and the loop
// compiled away cut a node from 1.26 to 1.07 us (bench/results/h100-ew-2026-11-23).
#include <cuda_runtime.h>
#include <stdint.h>

#include "ops/cuda/csrc/common.cuh"
#include "ops/cuda/csrc/opscuda.h"

namespace opscuda {
namespace {

constexpr int kThreads = 256;
// The vectorized kernel's blocks for problems of at least kBigVectors vectors. At 2^28 elements
// on an H200, one 16-byte vector per thread in blocks of 1024 threads reached 96.4-96.7% of
// cudaMemcpyAsync in float16, bfloat16 and float32, blocks of 512 99.8-100.4%, and blocks of 256
// or 128 100.5-101.3%; two or four vectors per thread, or a grid-stride loop over 4-8 blocks per
// SM, did not do better (92.4-100.5%; bench/results/h200-ew-blocks-2026-11-26). PyTorch's
// vectorized kernel uses blocks of 128 threads with one vector each. (On an H100, blocks of 1024
// had measured 1% faster than blocks of 256.) A small problem wants its few vectors spread over
// many SMs (4096 float32 elements in one block of 1024: 1.67 us per graph node, in four of 256:
// 1.07 us), which blocks of kThreads do.
constexpr int kBigThreads = 128;
constexpr long long kBigVectors = 1 << 20;

template <typename T, int NIN>
struct Ins {
  const T* p[NIN];
};

// ---- Functors. prepare() runs once per thread and returns the functor applied per element.

// The type the elementwise functors compute in: double, float for the 16-bit types.
template <typename T>
using ew_t = std::conditional_t<is_half_v<T>, float, double>;

template <typename T>
__device__ __forceinline__ ew_t<T> ld(T x) {
  return ew_t<T>(to_wide(x));
}

// The functors' scalars are of type S: double, or float for the 16-bit types (which compute in
// float), converted once on the host instead of in every thread.
template <typename S>
struct AddScalarF {
  S s;
  __device__ AddScalarF prepare() const { return *this; }
  template <typename T>
  __device__ T operator()(T x) const {
    return from_wide<T>(ld(x) + ew_t<T>(s));
  }
};

// AddScalar and Scale of float32 data by a scalar that is a float: computed in float, with the
// same bits as in double (double's 53 bits are more than 2*24+2, so rounding the exact sum or
// product to double and then to float gives the correctly rounded float result), in fewer
// instructions.
struct AddScalarFloatF {
  float s;
  __device__ AddScalarFloatF prepare() const { return *this; }
  __device__ float operator()(float x) const { return x + s; }
};

struct ScaleFloatF {
  float s;
  __device__ ScaleFloatF prepare() const { return *this; }
  __device__ float operator()(float x) const { return s * x; }
};

// Whether s is exactly a float.
inline bool is_float(double s) { return (double)(float)s == s; }

template <typename S>
struct ScaleF {
  S s;
  __device__ ScaleF prepare() const { return *this; }
  template <typename T>
  __device__ T operator()(T x) const {
    return from_wide<T>(ew_t<T>(s) * ld(x));
  }
};

template <typename S>
struct AxpbyF {
  S a, b;
  __device__ AxpbyF prepare() const { return *this; }
  template <typename T>
  __device__ T operator()(T x, T y) const {
    using A = ew_t<T>;
    return from_wide<T>(A(a) * ld(x) + A(b) * ld(y));
  }
};

template <typename S>
struct PolyF {
  S a, b, c, d;
  __device__ PolyF prepare() const { return *this; }
  template <typename T>
  __device__ T operator()(T x) const {
    using A = ew_t<T>;
    const A v = ld(x);
    return from_wide<T>(((A(a) * v + A(b)) * v + A(c)) * v + A(d));
  }
};

template <typename S>
struct PolyBwdF {
  S a3, b2, c;  // 3a, 2b, c
  __device__ PolyBwdF prepare() const { return *this; }
  template <typename T>
  __device__ T operator()(T g, T x) const {
    using A = ew_t<T>;
    const A v = ld(x);
    return from_wide<T>(ld(g) * ((A(a3) * v + A(b2)) * v + A(c)));
  }
};

struct CopyF {
  __device__ CopyF prepare() const { return *this; }
  template <typename T>
  __device__ T operator()(T x) const {
    return x;
  }
};

struct ScaleByF {
  double s;
  template <typename T>
  __device__ T operator()(T x) const {
    return from_wide<T>(ld(x) * ew_t<T>(s));
  }
};

// gradOut * x / norm with gradOut and norm read from device memory (0 where norm == 0).
template <typename T>
struct NormBwdF {
  const T* g;
  const T* norm;
  __device__ ScaleByF prepare() const {
    double n = double(to_wide(*norm));
    return ScaleByF{n == 0 ? 0.0 : double(to_wide(*g)) / n};
  }
};

template <typename F, typename T>
__device__ __forceinline__ T apply(const F& f, const T (&v)[1]) {
  return f(v[0]);
}
template <typename F, typename T>
__device__ __forceinline__ T apply(const F& f, const T (&v)[2]) {
  return f(v[0], v[1]);
}

// ---- Kernels.

template <typename T, int NIN, typename F, typename I, int BT>
__global__ void __launch_bounds__(BT)
    ew_vector_kernel(T* __restrict__ out, Ins<T, NIN> in, I n, F fn) {
  constexpr int N = 16 / sizeof(T);
  using P = Pack<T, N>;
  const auto f = fn.prepare();
  const I nvec = n / N;
  const I step = (I)gridDim.x * blockDim.x;
  for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < nvec; i += step) {
    P a[NIN];
#pragma unroll
    for (int k = 0; k < NIN; k++) a[k] = reinterpret_cast<const P*>(in.p[k])[i];
    P r;
#pragma unroll
    for (int j = 0; j < N; j++) {
      T v[NIN];
#pragma unroll
      for (int k = 0; k < NIN; k++) v[k] = a[k].v[j];
      r.v[j] = apply(f, v);
    }
    reinterpret_cast<P*>(out)[i] = r;
    if constexpr (kOnce<I>) break;
  }
  // The n % N elements after the last vector.
  const I tail = nvec * N + (I)blockIdx.x * blockDim.x + threadIdx.x;
  if (tail < n) {
    T v[NIN];
#pragma unroll
    for (int k = 0; k < NIN; k++) v[k] = in.p[k][tail];
    out[tail] = apply(f, v);
  }
}

template <typename T, int NIN, typename F, typename I>
__global__ void __launch_bounds__(kThreads)
    ew_contiguous_kernel(T* __restrict__ out, Ins<T, NIN> in, I n, F fn) {
  const auto f = fn.prepare();
  const I step = (I)gridDim.x * blockDim.x;
  for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
    T v[NIN];
#pragma unroll
    for (int k = 0; k < NIN; k++) v[k] = in.p[k][i];
    out[i] = apply(f, v);
    if constexpr (kOnce<I>) break;
  }
}

template <typename T, int NIN, typename F, typename I>
__global__ void __launch_bounds__(kThreads)
    ew_strided_kernel(T* __restrict__ out, Ins<T, NIN> in, Strides<NIN> s, I n, F fn) {
  const auto f = fn.prepare();
  const I step = (I)gridDim.x * blockDim.x;
  for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
    I off[NIN];
    offsets(i, s, off);
    T v[NIN];
#pragma unroll
    for (int k = 0; k < NIN; k++) v[k] = in.p[k][off[k]];
    out[i] = apply(f, v);
    if constexpr (kOnce<I>) break;
  }
}

// ---- Dispatch.

bool aligned16(opscuda_dptr p) { return (p & 15) == 0; }

template <typename T, int NIN, typename F>
cudaError_t run_typed(const Ew* e, F f) {
  Ins<T, NIN> in;
  for (int k = 0; k < NIN; k++) in.p[k] = cptr<T>(e->in[k]);
  T* out = mptr<T>(e->out);
  const long long n = e->n;
  const bool small = fits32((unsigned long long)n);
  if (contiguous(e)) {
    bool vec = aligned16(e->out);
    for (int k = 0; k < NIN; k++) vec = vec && aligned16(e->in[k]);
    if (vec) {
      constexpr int N = 16 / sizeof(T);
      // One block at least: enough threads for the tail (< N elements) too.
      const long long nvec = n / N;
      if (nvec < kBigVectors) {
        ew_vector_kernel<T, NIN, F, uint32_t, kThreads>
            <<<cover(nvec, kThreads), kThreads, 0, stream()>>>(out, in, (uint32_t)n, f);
      } else if (small) {
        ew_vector_kernel<T, NIN, F, uint32_t, kBigThreads>
            <<<cover(nvec, kBigThreads), kBigThreads, 0, stream()>>>(out, in, (uint32_t)n, f);
      } else {
        ew_vector_kernel<T, NIN, F, uint64_t, kBigThreads>
            <<<cover(nvec, kBigThreads), kBigThreads, 0, stream()>>>(out, in, (uint64_t)n, f);
      }
    } else {
      const unsigned grid = cover((unsigned long long)n, kThreads);
      if (small) {
        ew_contiguous_kernel<T, NIN, F, uint32_t><<<grid, kThreads, 0, stream()>>>(out, in, (uint32_t)n, f);
      } else {
        ew_contiguous_kernel<T, NIN, F, uint64_t><<<grid, kThreads, 0, stream()>>>(out, in, (uint64_t)n, f);
      }
    }
    return launched();
  }
  const Strides<NIN> s = strides_of<NIN>(e);
  const unsigned grid = cover((unsigned long long)n, kThreads);
  if (fits32(extent(e))) {
    ew_strided_kernel<T, NIN, F, uint32_t><<<grid, kThreads, 0, stream()>>>(out, in, s,
                                                                             (uint32_t)n, f);
  } else {
    ew_strided_kernel<T, NIN, F, uint64_t><<<grid, kThreads, 0, stream()>>>(out, in, s,
                                                                             (uint64_t)n, f);
  }
  return launched();
}

// Runs the functor of e's dtype: f32, f64, f16 (__half) or bf16 (__nv_bfloat16).
template <int NIN, typename F32, typename F64, typename F16, typename BF16>
int run(opscuda_stream st, const Ew* e, F32 f32, F64 f64, F16 f16, BF16 bf16) {
  if (e->nin != NIN || e->ndim < 1 || e->ndim > kMaxDims) return (int)cudaErrorInvalidValue;
  cudaError_t err = enter(e->device, st);
  if (err != cudaSuccess) return (int)err;
  if (e->n <= 0) return 0;
  switch (e->dtype) {
    case OPSCUDA_FLOAT32:
      return (int)run_typed<float, NIN>(e, f32);
    case OPSCUDA_FLOAT64:
      return (int)run_typed<double, NIN>(e, f64);
    case OPSCUDA_FLOAT16:
      return (int)run_typed<__half, NIN>(e, f16);
    case OPSCUDA_BFLOAT16:
      return (int)run_typed<__nv_bfloat16, NIN>(e, bf16);
  }
  return (int)cudaErrorInvalidValue;
}

template <int NIN, typename F>
int run(opscuda_stream st, const Ew* e, F f) {
  return run<NIN>(st, e, f, f, f, f);
}

// ---- NarrowBackward.

struct NarrowArgs {
  int ndim, dim;
  long long start, len;
  long long sizes[kMaxDims];
  long long gstrides[kMaxDims];
};

template <typename T, typename I>
__global__ void __launch_bounds__(kThreads)
    narrow_backward_kernel(T* __restrict__ out, const T* __restrict__ g, NarrowArgs a, I n) {
  const I step = (I)gridDim.x * blockDim.x;
  for (I i = (I)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
    I rem = i, off = 0;
    bool inside = true;
#pragma unroll
    for (int d = kMaxDims - 1; d >= 0; d--) {
      if (d < a.ndim) {
        const I size = (I)a.sizes[d];
        I c = rem % size;
        rem /= size;
        if (d == a.dim) {
          if (c < (I)a.start || c >= (I)(a.start + a.len)) inside = false;
          c -= (I)a.start;
        }
        off += c * (I)a.gstrides[d];
      }
    }
    out[i] = inside ? g[off] : from_wide<T>(0.0f);
  }
}

template <typename T>
cudaError_t narrow_backward_typed(int device, opscuda_dptr out, opscuda_dptr g,
                                  const NarrowArgs& a) {
  long long n = 1;
  unsigned long long ext = 1;
  for (int d = 0; d < a.ndim; d++) {
    n *= a.sizes[d];
    long long gs = d == a.dim ? a.len : a.sizes[d];
    if (gs > 0) ext += (unsigned long long)(gs - 1) * (unsigned long long)a.gstrides[d];
  }
  if (n <= 0) return cudaSuccess;
  const unsigned grid = cover((unsigned long long)n, kThreads);
  if (fits32((unsigned long long)n) && fits32(ext) && fits32((unsigned long long)(a.start + a.len))) {
    narrow_backward_kernel<T, uint32_t>
        <<<grid, kThreads, 0, stream()>>>(mptr<T>(out), cptr<T>(g), a, (uint32_t)n);
  } else {
    narrow_backward_kernel<T, uint64_t>
        <<<grid, kThreads, 0, stream()>>>(mptr<T>(out), cptr<T>(g), a, (uint64_t)n);
  }
  return launched();
}

}  // namespace
}  // namespace opscuda

using namespace opscuda;

// The 16-bit functors get their scalars as floats (rounded here as the device's conversion
// would round them, so the results are the same bits).
extern "C" int opscuda_add_scalar(OPSCUDA_EW, double s) {
  OPSCUDA_EW_PROBLEM(e);
  const AddScalarF<double> f{s};
  const AddScalarF<float> h{(float)s};
  if (e->dtype == OPSCUDA_FLOAT32 && is_float(s)) {
    return run<1>(st, e, AddScalarFloatF{(float)s}, f, h, h);
  }
  return run<1>(st, e, f, f, h, h);
}

extern "C" int opscuda_scale(OPSCUDA_EW, double s) {
  OPSCUDA_EW_PROBLEM(e);
  const ScaleF<double> f{s};
  const ScaleF<float> h{(float)s};
  if (e->dtype == OPSCUDA_FLOAT32 && is_float(s)) return run<1>(st, e, ScaleFloatF{(float)s}, f, h, h);
  return run<1>(st, e, f, f, h, h);
}

extern "C" int opscuda_axpby(OPSCUDA_EW, double a, double b) {
  OPSCUDA_EW_PROBLEM(e);
  const AxpbyF<double> f{a, b};
  const AxpbyF<float> h{(float)a, (float)b};
  return run<2>(st, e, f, f, h, h);
}

extern "C" int opscuda_polynomial(OPSCUDA_EW, double a, double b, double c, double d) {
  OPSCUDA_EW_PROBLEM(e);
  const PolyF<double> f{a, b, c, d};
  const PolyF<float> h{(float)a, (float)b, (float)c, (float)d};
  return run<1>(st, e, f, f, h, h);
}

extern "C" int opscuda_polynomial_backward(OPSCUDA_EW, double a, double b, double c) {
  OPSCUDA_EW_PROBLEM(e);
  const PolyBwdF<double> f{3 * a, 2 * b, c};
  const PolyBwdF<float> h{(float)(3 * a), (float)(2 * b), (float)c};
  return run<2>(st, e, f, f, h, h);
}

extern "C" int opscuda_copy(OPSCUDA_EW) {
  OPSCUDA_EW_PROBLEM(e);
  if (e->nin == 1 && contiguous(e) && e->n > 0) {
    cudaError_t err = enter(e->device, st);
    if (err != cudaSuccess) return (int)err;
    const size_t size = dtype_size(e->dtype);
    if (size == 0) return (int)cudaErrorInvalidValue;
    err = cudaMemcpyAsync(mptr<void>(e->out), cptr<void>(e->in[0]), (size_t)e->n * size,
                          cudaMemcpyDeviceToDevice, stream());
    return (int)err;
  }
  return run<1>(st, e, CopyF{});
}

extern "C" int opscuda_norm_backward(OPSCUDA_EW, opscuda_dptr g, opscuda_dptr norm) {
  OPSCUDA_EW_PROBLEM(e);
  return run<1>(st, e, NormBwdF<float>{cptr<float>(g), cptr<float>(norm)},
                NormBwdF<double>{cptr<double>(g), cptr<double>(norm)},
                NormBwdF<__half>{cptr<__half>(g), cptr<__half>(norm)},
                NormBwdF<__nv_bfloat16>{cptr<__nv_bfloat16>(g), cptr<__nv_bfloat16>(norm)});
}

extern "C" int opscuda_narrow_backward(opscuda_stream st, int device, int dtype,
                                       opscuda_dptr out, opscuda_dptr g, int ndim,
                                       const long long* sizes, const long long* gstrides, int dim,
                                       long long start, long long len) {
  if (ndim < 1 || ndim > kMaxDims || dim < 0 || dim >= ndim) return (int)cudaErrorInvalidValue;
  cudaError_t err = enter(device, st);
  if (err != cudaSuccess) return (int)err;
  NarrowArgs a;
  a.ndim = ndim;
  a.dim = dim;
  a.start = start;
  a.len = len;
  for (int d = 0; d < kMaxDims; d++) {
    a.sizes[d] = d < ndim ? sizes[d] : 1;
    a.gstrides[d] = d < ndim ? gstrides[d] : 0;
  }
  switch (dtype) {
    case OPSCUDA_FLOAT32:
      return (int)narrow_backward_typed<float>(device, out, g, a);
    case OPSCUDA_FLOAT64:
      return (int)narrow_backward_typed<double>(device, out, g, a);
    case OPSCUDA_FLOAT16:
    case OPSCUDA_BFLOAT16:
      // A pure copy: move the 16-bit patterns as they are.
      return (int)narrow_backward_typed<uint16_t>(device, out, g, a);
  }
  return (int)cudaErrorInvalidValue;
}
