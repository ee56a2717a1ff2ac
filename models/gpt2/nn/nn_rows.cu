// Package nn's row and elementwise kernels: embedding, layer norm, bias, GELU, cross-entropy
// and the optimizer's in-place updates. Row kernels run one block per row (a grid-stride loop
// past 2^20 rows) and reduce in a fixed order, so results are deterministic; bfloat16 is
// computed in float, float64 in double.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "models/gpt2/nn/nn.h"
#include "models/gpt2/nn/nn_common.cuh"

namespace nn {
namespace {

constexpr int kThreads = 256;

// ---- Embedding

template <typename T>
__global__ void embedding_forward_kernel(T* out, const int32_t* tokens, const T* wte, const T* wpe,
                                         long long rows, long long T_, long long C, long long V) {
  for (long long r = blockIdx.x; r < rows; r += gridDim.x) {
    const int32_t tok = tokens[r];
    const long long t = r % T_;
    const bool ok = tok >= 0 && tok < V;
    for (long long c = threadIdx.x; c < C; c += blockDim.x) {
      acc_t<T> v = ok ? acc_t<T>(load(wte, (long long)tok * C + c)) + acc_t<T>(load(wpe, t * C + c))
                      : acc_t<T>(NAN);
      store(out, r * C + c, v);
    }
  }
}

// dwpe[t, c] = sum over b of g[b, t, c] (rows t >= T zero).
template <typename T>
__global__ void embedding_wpe_kernel(T* dwpe, const T* g, long long B, long long T_, long long C,
                                     long long maxT) {
  for (long long t = blockIdx.x; t < maxT; t += gridDim.x) {
    for (long long c = threadIdx.x; c < C; c += blockDim.x) {
      acc_t<T> s = 0;
      if (t < T_) {
        for (long long b = 0; b < B; b++) s += load(g, (b * T_ + t) * C + c);
      }
      store(dwpe, t * C + c, s);
    }
  }
}

// dwte[v, c] = sum of g[r, c] over the positions r whose token is v, in position order: each
// block takes vocabulary rows; per chunk of blockDim.x positions it lists the matching ones in
// shared memory (warp ballots, in order), then each thread adds their g to its column.
template <typename T>
__global__ void embedding_wte_kernel(T* dwte, const T* g, const int32_t* tokens, long long N,
                                     long long C, long long V) {
  __shared__ int match[1024];
  __shared__ int counts[32];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  for (long long v = blockIdx.x; v < V; v += gridDim.x) {
    for (long long c0 = 0; c0 < C; c0 += blockDim.x) {
      const long long c = c0 + threadIdx.x;
      acc_t<T> s = 0;
      for (long long base = 0; base < N; base += blockDim.x) {
        const long long r = base + threadIdx.x;
        const bool hit = r < N && tokens[r] == v;
        const unsigned ballot = __ballot_sync(0xffffffffu, hit);
        __syncthreads();  // the previous chunk's list has been read
        if (lane == 0) counts[warp] = __popc(ballot);
        __syncthreads();
        int offset = __popc(ballot & ((1u << lane) - 1u)), total = 0;
        for (int w = 0; w < warps; w++) {
          if (w < warp) offset += counts[w];
          total += counts[w];
        }
        if (hit) match[offset] = (int)threadIdx.x;
        __syncthreads();
        if (c < C) {
          for (int i = 0; i < total; i++) s += load(g, (base + match[i]) * C + c);
        }
      }
      if (c < C) store(dwte, v * C + c, s);
    }
  }
}

// ---- Layer norm

// The mean and 1/sqrt(var + eps) of row x[0, C), two passes.
template <typename T>
__device__ void row_stats(const T* x, long long C, double eps, acc_t<T>* shared, acc_t<T>* mean,
                          acc_t<T>* rstd) {
  using A = acc_t<T>;
  A s = 0;
  for (long long c = threadIdx.x; c < C; c += blockDim.x) s += load(x, c);
  const A m = block_sum(s, shared) / A(C);
  A q = 0;
  for (long long c = threadIdx.x; c < C; c += blockDim.x) {
    const A d = A(load(x, c)) - m;
    q += d * d;
  }
  const A var = block_sum(q, shared) / A(C);
  *mean = m;
  *rstd = A(1) / dsqrt(var + A(eps));
}

template <typename T>
__global__ void layernorm_forward_kernel(T* out, const T* x, const T* w, const T* b, long long N,
                                         long long C, double eps) {
  using A = acc_t<T>;
  __shared__ A shared[32];
  for (long long r = blockIdx.x; r < N; r += gridDim.x) {
    A mean, rstd;
    row_stats(x + r * C, C, eps, shared, &mean, &rstd);
    for (long long c = threadIdx.x; c < C; c += blockDim.x) {
      store(out, r * C + c, (A(load(x, r * C + c)) - mean) * rstd * A(load(w, c)) + A(load(b, c)));
    }
  }
}

// dx of each row; stats[2r], stats[2r+1]: the row's mean and rstd for the column sums.
template <typename T>
__global__ void layernorm_dx_kernel(T* dx, const T* g, const T* x, const T* w, acc_t<T>* stats,
                                    long long N, long long C, double eps) {
  using A = acc_t<T>;
  __shared__ A shared[32];
  for (long long r = blockIdx.x; r < N; r += gridDim.x) {
    A mean, rstd;
    row_stats(x + r * C, C, eps, shared, &mean, &rstd);
    A s1 = 0, s2 = 0;
    for (long long c = threadIdx.x; c < C; c += blockDim.x) {
      const A dxhat = A(load(g, r * C + c)) * A(load(w, c));
      s1 += dxhat;
      s2 += dxhat * (A(load(x, r * C + c)) - mean) * rstd;
    }
    const A m1 = block_sum(s1, shared) / A(C);
    const A m2 = block_sum(s2, shared) / A(C);
    for (long long c = threadIdx.x; c < C; c += blockDim.x) {
      const A xhat = (A(load(x, r * C + c)) - mean) * rstd;
      const A dxhat = A(load(g, r * C + c)) * A(load(w, c));
      store(dx, r * C + c, rstd * (dxhat - m1 - xhat * m2));
    }
    if (threadIdx.x == 0) {
      stats[2 * r] = mean;
      stats[2 * r + 1] = rstd;
    }
  }
}

// Column sums over N rows, 32 columns per block of 32x16 threads: dw[c] = sum g*xhat (when
// stats is not null), db[c] = sum g.
constexpr int kColX = 32, kColY = 16;
template <typename T>
__global__ void column_sums_kernel(T* dw, T* db, const T* g, const T* x, const acc_t<T>* stats,
                                   long long N, long long C) {
  using A = acc_t<T>;
  __shared__ A sw[kColY][kColX + 1], sb[kColY][kColX + 1];
  for (long long c0 = (long long)blockIdx.x * kColX; c0 < C; c0 += (long long)gridDim.x * kColX) {
    const long long c = c0 + threadIdx.x;
    A aw = 0, ab = 0;
    if (c < C) {
      for (long long r = threadIdx.y; r < N; r += kColY) {
        const A gv = load(g, r * C + c);
        ab += gv;
        if (stats != nullptr) aw += gv * (A(load(x, r * C + c)) - stats[2 * r]) * stats[2 * r + 1];
      }
    }
    sw[threadIdx.y][threadIdx.x] = aw;
    sb[threadIdx.y][threadIdx.x] = ab;
    __syncthreads();
    if (threadIdx.y == 0 && c < C) {
      A tw = 0, tb = 0;
      for (int y = 0; y < kColY; y++) {
        tw += sw[y][threadIdx.x];
        tb += sb[y][threadIdx.x];
      }
      if (dw != nullptr) store(dw, c, tw);
      store(db, c, tb);
    }
    __syncthreads();
  }
}

inline unsigned column_blocks(long long C) {
  long long b = (C + kColX - 1) / kColX;
  if (b < 1) b = 1;
  return b > 65535 ? 65535u : (unsigned)b;
}

// ---- Bias and GELU (elementwise)

template <typename T>
__global__ void bias_add_kernel(T* out, const T* x, const T* b, long long n, long long C) {
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    store(out, i, acc_t<T>(load(x, i)) + acc_t<T>(load(b, i % C)));
  }
}

template <typename A>
__device__ __forceinline__ A gelu_inner(A x) {
  const A k = A(0.7978845608028654);  // sqrt(2/pi)
  return k * (x + A(0.044715) * x * x * x);
}

template <typename T>
__global__ void gelu_forward_kernel(T* out, const T* x, long long n) {
  using A = acc_t<T>;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    const A v = load(x, i);
    store(out, i, A(0.5) * v * (A(1) + dtanh(gelu_inner(v))));
  }
}

template <typename T>
__global__ void gelu_backward_kernel(T* out, const T* g, const T* x, long long n) {
  using A = acc_t<T>;
  const A k = A(0.7978845608028654);
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (long long)gridDim.x * blockDim.x) {
    const A v = load(x, i);
    const A t = dtanh(gelu_inner(v));
    const A d = A(0.5) * (A(1) + t) + A(0.5) * v * (A(1) - t * t) * k * (A(1) + A(3 * 0.044715) * v * v);
    store(out, i, A(load(g, i)) * d);
  }
}

// ---- Cross-entropy

// logsumexp of row x[0, V).
template <typename T>
__device__ acc_t<T> row_lse(const T* x, long long V, acc_t<T>* shared) {
  using A = acc_t<T>;
  A m = -INFINITY;
  for (long long i = threadIdx.x; i < V; i += blockDim.x) m = fmax(m, A(load(x, i)));
  m = block_max(m, shared);
  A s = 0;
  for (long long i = threadIdx.x; i < V; i += blockDim.x) s += dexp(A(load(x, i)) - m);
  return m + dlog(block_sum(s, shared));
}

// scratch[r]: the row's loss (0 when ignored, NaN for a target out of range); scratch[N + r]: 1
// when counted.
template <typename T>
__global__ void cross_entropy_rows_kernel(acc_t<T>* scratch, const T* x, const int32_t* targets,
                                          long long N, long long V) {
  using A = acc_t<T>;
  __shared__ A shared[32];
  for (long long r = blockIdx.x; r < N; r += gridDim.x) {
    const int32_t t = targets[r];
    if (t == -1) {
      if (threadIdx.x == 0) scratch[r] = scratch[N + r] = 0;
      continue;
    }
    const A lse = row_lse(x + r * V, V, shared);
    if (threadIdx.x == 0) {
      scratch[r] = (t >= 0 && t < V) ? lse - A(load(x, r * V + t)) : A(NAN);
      scratch[N + r] = 1;
    }
  }
}

// loss[0] = sum(scratch[0, N)) / sum(scratch[N, 2N)): one block of 1024 threads.
template <typename A, typename L>
__global__ void cross_entropy_mean_kernel(L* loss, const A* scratch, long long N) {
  __shared__ double shared[32];
  double s = 0, n = 0;
  for (long long r = threadIdx.x; r < N; r += blockDim.x) {
    s += scratch[r];
    n += scratch[N + r];
  }
  s = block_sum(s, shared);
  n = block_sum(n, shared);
  if (threadIdx.x == 0) loss[0] = (L)(s / n);
}

// count[0] = number of targets that are not -1: one block of 1024 threads.
template <typename A>
__global__ void count_kernel(A* count, const int32_t* targets, long long N) {
  __shared__ double shared[32];
  double n = 0;
  for (long long r = threadIdx.x; r < N; r += blockDim.x) n += targets[r] != -1 ? 1 : 0;
  n = block_sum(n, shared);
  if (threadIdx.x == 0) count[0] = (A)n;
}

template <typename T, typename L>
__global__ void cross_entropy_backward_kernel(T* dx, const L* g, const T* x, const int32_t* targets,
                                              const acc_t<T>* count, long long N, long long V) {
  using A = acc_t<T>;
  __shared__ A shared[32];
  for (long long r = blockIdx.x; r < N; r += gridDim.x) {
    const int32_t t = targets[r];
    if (t == -1) {
      for (long long i = threadIdx.x; i < V; i += blockDim.x) store(dx, r * V + i, A(0));
      continue;
    }
    const A lse = row_lse(x + r * V, V, shared);
    const A scale = A(g[0]) / count[0];
    const bool ok = t >= 0 && t < V;
    for (long long i = threadIdx.x; i < V; i += blockDim.x) {
      A p = dexp(A(load(x, r * V + i)) - lse);
      if (i == t) p -= A(1);
      store(dx, r * V + i, ok ? scale * p : A(NAN));
    }
  }
}

// ---- Optimizer (in place)

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

extern "C" int nn_embedding_forward(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr tokens,
                                    nn_ptr wte, nn_ptr wpe, long long B, long long T, long long C,
                                    long long V) {
  NN_ENTER(device);
  if (B * T == 0 || C == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty)                                                                              \
  embedding_forward_kernel<Ty><<<row_blocks(B * T), kThreads, 0, s>>>(                          \
      (Ty*)out, (const int32_t*)tokens, (const Ty*)wte, (const Ty*)wpe, B * T, T, C, V)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}

extern "C" int nn_embedding_backward(nn_ptr stream, int device, int dtype, nn_ptr dwte, nn_ptr dwpe,
                                     nn_ptr g, nn_ptr tokens, long long B, long long T, long long C,
                                     long long V, long long maxT) {
  NN_ENTER(device);
  if (C == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty)                                                                              \
  do {                                                                                          \
    if (maxT > 0)                                                                               \
      embedding_wpe_kernel<Ty><<<row_blocks(maxT), kThreads, 0, s>>>((Ty*)dwpe, (const Ty*)g, B, \
                                                                      T, C, maxT);              \
    if (V > 0)                                                                                  \
      embedding_wte_kernel<Ty><<<row_blocks(V), kThreads, 0, s>>>(                              \
          (Ty*)dwte, (const Ty*)g, (const int32_t*)tokens, B * T, C, V);                        \
  } while (0)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}

extern "C" int nn_layernorm_forward(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr x,
                                    nn_ptr w, nn_ptr b, long long N, long long C, double eps) {
  NN_ENTER(device);
  if (N == 0 || C == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty)                                                                      \
  layernorm_forward_kernel<Ty><<<row_blocks(N), kThreads, 0, s>>>(                       \
      (Ty*)out, (const Ty*)x, (const Ty*)w, (const Ty*)b, N, C, eps)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}

extern "C" int nn_layernorm_backward(nn_ptr stream, int device, int dtype, nn_ptr dx, nn_ptr dw,
                                     nn_ptr db, nn_ptr g, nn_ptr x, nn_ptr w, nn_ptr stats,
                                     long long N, long long C, double eps) {
  NN_ENTER(device);
  if (C == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty)                                                                             \
  do {                                                                                         \
    if (N > 0)                                                                                 \
      layernorm_dx_kernel<Ty><<<row_blocks(N), kThreads, 0, s>>>(                              \
          (Ty*)dx, (const Ty*)g, (const Ty*)x, (const Ty*)w, (acc_t<Ty>*)stats, N, C, eps);    \
    column_sums_kernel<Ty><<<column_blocks(C), dim3(kColX, kColY), 0, s>>>(                    \
        (Ty*)dw, (Ty*)db, (const Ty*)g, (const Ty*)x, (const acc_t<Ty>*)stats, N, C);          \
  } while (0)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}

extern "C" int nn_bias_add(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr x, nn_ptr b,
                           long long N, long long C) {
  NN_ENTER(device);
  if (N * C == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty)                                                      \
  bias_add_kernel<Ty><<<blocks_for(N * C, kThreads), kThreads, 0, s>>>( \
      (Ty*)out, (const Ty*)x, (const Ty*)b, N * C, C)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}

extern "C" int nn_bias_grad(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr g, long long N,
                            long long C) {
  NN_ENTER(device);
  if (C == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty)                                                           \
  column_sums_kernel<Ty><<<column_blocks(C), dim3(kColX, kColY), 0, s>>>(     \
      (Ty*)nullptr, (Ty*)out, (const Ty*)g, (const Ty*)nullptr, (const acc_t<Ty>*)nullptr, N, C)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}

extern "C" int nn_gelu_forward(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr x,
                               long long n) {
  NN_ENTER(device);
  if (n == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty) \
  gelu_forward_kernel<Ty><<<blocks_for(n, kThreads), kThreads, 0, s>>>((Ty*)out, (const Ty*)x, n)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}

extern "C" int nn_gelu_backward(nn_ptr stream, int device, int dtype, nn_ptr out, nn_ptr g, nn_ptr x,
                                long long n) {
  NN_ENTER(device);
  if (n == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty)                                                          \
  gelu_backward_kernel<Ty><<<blocks_for(n, kThreads), kThreads, 0, s>>>(     \
      (Ty*)out, (const Ty*)g, (const Ty*)x, n)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}

extern "C" int nn_cross_entropy_forward(nn_ptr stream, int device, int dtype, nn_ptr loss,
                                        nn_ptr logits, nn_ptr targets, nn_ptr scratch, long long N,
                                        long long V) {
  NN_ENTER(device);
  cudaStream_t s = as_stream(stream);
  // The loss is float for float32 and bfloat16 logits, double for float64 ones.
#define LAUNCH(Ty)                                                                               \
  do {                                                                                           \
    using A = acc_t<Ty>;                                                                         \
    if (N > 0)                                                                                   \
      cross_entropy_rows_kernel<Ty><<<row_blocks(N), kThreads, 0, s>>>(                          \
          (A*)scratch, (const Ty*)logits, (const int32_t*)targets, N, V);                        \
    cross_entropy_mean_kernel<A, A><<<1, 1024, 0, s>>>((A*)loss, (const A*)scratch, N);          \
  } while (0)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}

extern "C" int nn_cross_entropy_backward(nn_ptr stream, int device, int dtype, nn_ptr dlogits,
                                         nn_ptr g, nn_ptr logits, nn_ptr targets, nn_ptr scratch,
                                         long long N, long long V) {
  NN_ENTER(device);
  if (N == 0 || V == 0) return 0;
  cudaStream_t s = as_stream(stream);
#define LAUNCH(Ty)                                                                          \
  do {                                                                                      \
    using A = acc_t<Ty>;                                                                    \
    count_kernel<A><<<1, 1024, 0, s>>>((A*)scratch, (const int32_t*)targets, N);            \
    cross_entropy_backward_kernel<Ty, A><<<row_blocks(N), kThreads, 0, s>>>(                \
        (Ty*)dlogits, (const A*)g, (const Ty*)logits, (const int32_t*)targets, (const A*)scratch, \
        N, V);                                                                              \
  } while (0)
  NN_DISPATCH(dtype, LAUNCH)
#undef LAUNCH
  return (int)cudaGetLastError();
}

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
