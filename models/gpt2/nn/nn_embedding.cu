// Package nn's embedding kernels: the token and position embedding, and its backward (the
// position rows summed over the batch; each vocabulary row summed over the positions of its token,
// in position order, so results are deterministic).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "models/gpt2/nn/nn.h"
#include "models/gpt2/nn/nn_common.cuh"

namespace nn {
namespace {

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
