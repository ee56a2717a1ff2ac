// Variants of a 16-byte-vector elementwise x + s kernel at large sizes: threads per block and vectors per thread.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cstdint>
#include <cstdlib>

template <typename T> __device__ __forceinline__ float tof(T x);
template <> __device__ __forceinline__ float tof(__half x) { return __half2float(x); }
template <> __device__ __forceinline__ float tof(__nv_bfloat16 x) { return __bfloat162float(x); }
template <> __device__ __forceinline__ float tof(float x) { return x; }
template <typename T> __device__ __forceinline__ T fromf(float x);
template <> __device__ __forceinline__ __half fromf(float x) { return __float2half_rn(x); }
template <> __device__ __forceinline__ __nv_bfloat16 fromf(float x) { return __float2bfloat16_rn(x); }
template <> __device__ __forceinline__ float fromf(float x) { return x; }

struct __align__(16) V { uint4 v; };

// Block b handles U*T consecutive vectors; thread t handles vectors b*U*T + t + k*T.
template <typename T, int TH, int U>
__global__ void __launch_bounds__(TH) addk(V* __restrict__ out, const V* __restrict__ in, uint32_t nvec, float s) {
  constexpr int N = 16 / sizeof(T);
  uint32_t base = blockIdx.x * (U * TH) + threadIdx.x;
  V r[U];
#pragma unroll
  for (int k = 0; k < U; k++) { uint32_t i = base + k * TH; if (i < nvec) r[k] = in[i]; }
#pragma unroll
  for (int k = 0; k < U; k++) {
    uint32_t i = base + k * TH;
    if (i < nvec) {
      T* e = reinterpret_cast<T*>(&r[k]);
#pragma unroll
      for (int j = 0; j < N; j++) e[j] = fromf<T>(tof(e[j]) + s);
      out[i] = r[k];
    }
  }
}

// Grid-stride: blocks = SMs * BPS, each thread loops.
template <typename T, int TH>
__global__ void __launch_bounds__(TH) addgs(V* __restrict__ out, const V* __restrict__ in, uint32_t nvec, float s) {
  constexpr int N = 16 / sizeof(T);
  for (uint32_t i = blockIdx.x * TH + threadIdx.x; i < nvec; i += gridDim.x * TH) {
    V r = in[i];
    T* e = reinterpret_cast<T*>(&r);
#pragma unroll
    for (int j = 0; j < N; j++) e[j] = fromf<T>(tof(e[j]) + s);
    out[i] = r;
  }
}

template <typename F>
float timeit(F f, int reps) {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> ms;
  f(); f();
  for (int s = 0; s < 7; s++) {
    cudaEventRecord(a);
    for (int r = 0; r < reps; r++) f();
    cudaEventRecord(b); cudaEventSynchronize(b);
    float m; cudaEventElapsedTime(&m, a, b); ms.push_back(m * 1000 / reps);
  }
  std::sort(ms.begin(), ms.end());
  return ms[3];
}

template <typename T, int TH, int U>
void variant(const char* dt, V* o, const V* i, uint32_t nvec, float copy) {
  unsigned grid = (nvec + U * TH - 1) / (U * TH);
  float us = timeit([&] { addk<T, TH, U><<<grid, TH>>>(o, i, nvec, 0.25f); }, 20);
  printf("%s threads=%d vec/thread=%d: %.1f us (%.1f%% of memcpy)\n", dt, TH, U, us, 100 * copy / us);
}

template <typename T, int TH, int BPS>
void gsvariant(const char* dt, V* o, const V* i, uint32_t nvec, float copy, int sms) {
  unsigned grid = sms * BPS;
  float us = timeit([&] { addgs<T, TH><<<grid, TH>>>(o, i, nvec, 0.25f); }, 20);
  printf("%s gridstride threads=%d blocks/SM=%d: %.1f us (%.1f%% of memcpy)\n", dt, TH, BPS, us, 100 * copy / us);
}

template <typename T>
void all(const char* dt, V* o, const V* i, size_t bytes, int sms) {
  uint32_t nvec = bytes / 16;
  float copy = timeit([&] { cudaMemcpyAsync(o, i, bytes, cudaMemcpyDeviceToDevice); }, 20);
  printf("%s %zu bytes: memcpy %.1f us (%.0f GB/s)\n", dt, bytes, copy, 2 * bytes / copy / 1e3);
  variant<T, 1024, 1>(dt, o, i, nvec, copy);
  variant<T, 1024, 2>(dt, o, i, nvec, copy);
  variant<T, 512, 1>(dt, o, i, nvec, copy);
  variant<T, 512, 2>(dt, o, i, nvec, copy);
  variant<T, 256, 1>(dt, o, i, nvec, copy);
  variant<T, 256, 2>(dt, o, i, nvec, copy);
  variant<T, 256, 4>(dt, o, i, nvec, copy);
  variant<T, 128, 1>(dt, o, i, nvec, copy);
  variant<T, 128, 2>(dt, o, i, nvec, copy);
  variant<T, 128, 4>(dt, o, i, nvec, copy);
  gsvariant<T, 512, 4>(dt, o, i, nvec, copy, sms);
  gsvariant<T, 256, 8>(dt, o, i, nvec, copy, sms);
}

int main(int argc, char** argv) {
  size_t elems = argc > 1 ? strtoull(argv[1], 0, 10) : (1ull << 28);
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
  printf("%s, %d SMs, %zu elements\n", p.name, sms, elems);
  V *i, *o;
  cudaMalloc(&i, elems * 4); cudaMalloc(&o, elems * 4);
  cudaMemset(i, 0, elems * 4);
  all<__half>("f16", o, i, elems * 2, sms);
  all<__nv_bfloat16>("bf16", o, i, elems * 2, sms);
  all<float>("f32", o, i, elems * 4, sms);
  cudaError_t e = cudaDeviceSynchronize();
  printf("done: %s\n", cudaGetErrorString(e));
  return 0;
}
