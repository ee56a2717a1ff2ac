// floor: what any CUDA op call costs on this machine before its kernel does any work, measured with
// the CUDA runtime alone (no Go, no Python): an empty kernel launched and waited for, launches back
// to back, and the allocation and synchronization calls an op may make; and how launching scales
// to two host threads, each on its own stream. The per-call latencies of the ops benchmark (Go and
// PyTorch) and the two-stream rows of the streams benchmark are read against these numbers.
//
//   floor [auto|spin|yield|block]   (the cudaSetDeviceFlags scheduling mode; default auto)
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <tuple>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1);} } while (0)
__global__ void empty_k() {}
__global__ void add1(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += 1.f; }
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
template <class F> double med(int reps, F f) {
  std::vector<double> s(reps);
  for (int i = 0; i < reps; i++) { double t = now(); f(); s[i] = now() - t; }
  std::sort(s.begin(), s.end()); return s[reps / 2] * 1e6;
}
template <class F> double batch(int k, F f) {
  std::vector<double> s(5);
  for (int r = 0; r < 5; r++) { CK(cudaDeviceSynchronize()); double t = now(); for (int i = 0; i < k; i++) f(); CK(cudaDeviceSynchronize()); s[r] = (now() - t) / k; }
  std::sort(s.begin(), s.end()); return s[2] * 1e6;
}
// Launch throughput of `threads` host threads, each launching k times f(its stream, its buffer) on
// its own non-blocking stream, all started together: microseconds per launch over all threads,
// from the start until every stream has finished (median of 5 rounds).
template <class F> double threaded(int threads, int k, F f) {
  std::vector<cudaStream_t> ss(threads);
  std::vector<float*> xs(threads);
  for (int t = 0; t < threads; t++) {
    CK(cudaStreamCreateWithFlags(&ss[t], cudaStreamNonBlocking));
    CK(cudaMalloc(&xs[t], 4096 * 4));
    CK(cudaMemset(xs[t], 0, 4096 * 4));
  }
  std::vector<double> s(5);
  for (int r = 0; r < 5; r++) {
    CK(cudaDeviceSynchronize());
    std::vector<std::thread> ts;
    double t0 = now();
    for (int t = 0; t < threads; t++)
      ts.emplace_back([&, t] {
        CK(cudaSetDevice(0));
        for (int i = 0; i < k; i++) f(ss[t], xs[t]);
        CK(cudaStreamSynchronize(ss[t]));
      });
    for (auto& th : ts) th.join();
    s[r] = (now() - t0) / (double(threads) * k);
  }
  for (int t = 0; t < threads; t++) {
    CK(cudaStreamDestroy(ss[t]));
    CK(cudaFree(xs[t]));
  }
  std::sort(s.begin(), s.end()); return s[2] * 1e6;
}
int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "auto";
  if (!strcmp(mode, "spin")) CK(cudaSetDeviceFlags(cudaDeviceScheduleSpin));
  if (!strcmp(mode, "yield")) CK(cudaSetDeviceFlags(cudaDeviceScheduleYield));
  if (!strcmp(mode, "block")) CK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
  CK(cudaSetDevice(0));
  float* x; CK(cudaMalloc(&x, 4096 * 4)); CK(cudaMemset(x, 0, 4096 * 4));
  // Keep freed memory in the pool, as ops/cuda does, so the allocation rows measure the calls.
  cudaMemPool_t pool; CK(cudaDeviceGetDefaultMemPool(&pool, 0));
  unsigned long long threshold = ~0ull; CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  int driver = 0, runtime = 0; CK(cudaDriverGetVersion(&driver)); CK(cudaRuntimeGetVersion(&runtime));
  cudaStream_t s = cudaStreamLegacy;
  for (int i = 0; i < 2000; i++) { empty_k<<<1, 32, 0, s>>>(); }
  CK(cudaDeviceSynchronize());
  printf("%s, driver API %d, runtime %d; scheduling mode %s; microseconds, median\n", prop.name, driver, runtime, mode);
  printf("  cudaDeviceSynchronize, idle GPU          %8.2f\n", med(2000, [] { cudaDeviceSynchronize(); }));
  printf("  empty kernel + cudaDeviceSynchronize     %8.2f\n", med(2000, [&] { empty_k<<<1, 32, 0, s>>>(); cudaDeviceSynchronize(); }));
  printf("  empty kernel + cudaStreamSynchronize     %8.2f\n", med(2000, [&] { empty_k<<<1, 32, 0, s>>>(); cudaStreamSynchronize(s); }));
  printf("  add1 4K + cudaDeviceSynchronize          %8.2f\n", med(2000, [&] { add1<<<16, 256, 0, s>>>(x, 4096); cudaDeviceSynchronize(); }));
  printf("  malloc+add1+free async + sync            %8.2f\n", med(2000, [&] { float* p; cudaMallocAsync((void**)&p, 16384, s); add1<<<16, 256, 0, s>>>(p, 4096); cudaFreeAsync(p, s); cudaDeviceSynchronize(); }));
  printf("  empty kernel launch, batched             %8.2f\n", batch(10000, [&] { empty_k<<<1, 32, 0, s>>>(); }));
  printf("  add1 4K launch, batched                  %8.2f\n", batch(10000, [&] { add1<<<16, 256, 0, s>>>(x, 4096); }));
  printf("  malloc+add1+free async, batched          %8.2f\n", batch(10000, [&] { float* p; cudaMallocAsync((void**)&p, 16384, s); add1<<<16, 256, 0, s>>>(p, 4096); cudaFreeAsync(p, s); }));
  printf("  cudaMallocAsync+cudaFreeAsync (host)     %8.3f\n", batch(10000, [&] { void* p; cudaMallocAsync(&p, 16384, s); cudaFreeAsync(p, s); }));
  printf("  cudaSetDevice(0) (host)                  %8.3f\n", batch(100000, [] { cudaSetDevice(0); }));
  printf("  cudaGetLastError (host)                  %8.3f\n", batch(100000, [] { (void)cudaGetLastError(); }));
  // GPU-side time of back-to-back tiny kernels (events around 10000).
  cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
  CK(cudaEventRecord(a, s)); for (int i = 0; i < 10000; i++) add1<<<16, 256, 0, s>>>(x, 4096); CK(cudaEventRecord(b, s)); CK(cudaEventSynchronize(b));
  float ms; CK(cudaEventElapsedTime(&ms, a, b)); printf("  add1 4K, events over 10000 launches      %8.2f\n", ms * 1e3 / 10000);
  // Graph of 100 launches: GPU floor without the host launch path.
  cudaStream_t cs; CK(cudaStreamCreateWithFlags(&cs, cudaStreamNonBlocking)); cudaGraph_t g; cudaGraphExec_t ge;
  CK(cudaStreamBeginCapture(cs, cudaStreamCaptureModeGlobal)); for (int i = 0; i < 100; i++) add1<<<16, 256, 0, cs>>>(x, 4096); CK(cudaStreamEndCapture(cs, &g));
  CK(cudaGraphInstantiateWithFlags(&ge, g, 0)); CK(cudaGraphLaunch(ge, cs)); CK(cudaStreamSynchronize(cs));
  CK(cudaEventRecord(a, cs)); for (int i = 0; i < 20; i++) CK(cudaGraphLaunch(ge, cs)); CK(cudaEventRecord(b, cs)); CK(cudaEventSynchronize(b));
  CK(cudaEventElapsedTime(&ms, a, b)); printf("  add1 4K in a graph, per kernel (events)  %8.2f\n", ms * 1e3 / 2000);
  // Two host threads, two streams: what the driver gives two threads of one context (the ceiling
  // for the streams benchmark's two goroutines x two streams).
  auto add = [](cudaStream_t st, float* p) { add1<<<16, 256, 0, st>>>(p, 4096); };
  auto op = [](cudaStream_t st, float* p) { float* q; cudaMallocAsync((void**)&q, 16384, st); add1<<<16, 256, 0, st>>>(q, 4096); cudaFreeAsync(q, st); (void)p; };
  for (auto [name, one, two] : {std::tuple{"add1 4K launch", threaded(1, 20000, add), threaded(2, 10000, add)},
                                std::tuple{"malloc+add1+free async", threaded(1, 20000, op), threaded(2, 10000, op)}}) {
    printf("  %-22s 1 thread, 1 stream      %8.2f\n", name, one);
    printf("  %-22s 2 threads x 2 streams   %8.2f   (%.2fx the throughput of one)\n", name, two, one / two);
  }
  return 0;
}
