// Devices, memory, copies, synchronization and errors for ops/cuda, on the CUDA runtime only.
// Streams, events, graphs and pinned host memory are in streams.cu.
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include <atomic>

#include "ops/cuda/csrc/common.cuh"
#include "ops/cuda/csrc/opscuda.h"

namespace opscuda {
namespace {

constexpr int kCached = 64;  // devices whose properties are cached
std::atomic<int> g_sms[kCached];
// 0: not checked yet, 1: stream-ordered pool, 2: plain cudaMalloc/cudaFree.
std::atomic<int> g_pool[kCached];

// Whether the device has a stream-ordered memory pool; on first use, make the pool keep freed
// memory (release threshold = max) so that allocation after the first is cheap, like PyTorch's
// caching allocator.
bool uses_pool(int device) {
  int s = device < kCached ? g_pool[device].load(std::memory_order_relaxed) : 0;
  if (s != 0) return s == 1;
  int supported = 0;
  if (cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device) != cudaSuccess) {
    supported = 0;
  }
  if (supported) {
    cudaMemPool_t pool;
    if (cudaDeviceGetDefaultMemPool(&pool, device) == cudaSuccess) {
      uint64_t threshold = UINT64_MAX;
      (void)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
    }
  }
  (void)cudaGetLastError();
  if (device < kCached) g_pool[device].store(supported ? 1 : 2, std::memory_order_relaxed);
  return supported != 0;
}

}  // namespace

thread_local cudaStream_t t_stream = cudaStreamLegacy;

cudaError_t enter(int device, opscuda_stream s) {
  t_stream = as_stream(s);
  // cudaGetDevice reads the thread's current device (no driver call); cudaSetDevice costs about
  // 0.1 us even when the device is already current, so it is only called when it is not.
  int current = -1;
  if (cudaGetDevice(&current) != cudaSuccess || current != device) {
    cudaError_t err = cudaSetDevice(device);
    if (err != cudaSuccess) return err;
  }
  (void)cudaGetLastError();
  return cudaSuccess;
}

int sm_count(int device) {
  int n = device < kCached ? g_sms[device].load(std::memory_order_relaxed) : 0;
  if (n > 0) return n;
  if (cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || n <= 0) {
    (void)cudaGetLastError();
    return 1;
  }
  if (device < kCached) g_sms[device].store(n, std::memory_order_relaxed);
  return n;
}

cudaError_t scratch_alloc(int device, size_t bytes, void** p) {
  *p = nullptr;
  if (uses_pool(device)) return cudaMallocAsync(p, bytes, stream());
  return cudaMalloc(p, bytes);
}

cudaError_t scratch_free(int device, void* p) {
  if (p == nullptr) return cudaSuccess;
  if (uses_pool(device)) return cudaFreeAsync(p, stream());
  return cudaFree(p);  // synchronizes with the device first
}

}  // namespace opscuda

using namespace opscuda;

extern "C" int opscuda_device_count(int* count) {
  *count = 0;
  cudaError_t err = cudaGetDeviceCount(count);
  if (err != cudaSuccess) {
    *count = 0;
    (void)cudaGetLastError();
  }
  return (int)err;
}

extern "C" int opscuda_versions(int* driver, int* runtime) {
  *driver = 0;
  *runtime = 0;
  cudaError_t err = cudaDriverGetVersion(driver);
  if (err == cudaSuccess) err = cudaRuntimeGetVersion(runtime);
  return (int)err;
}

extern "C" int opscuda_device_info(int device, char* name, int len, int* major, int* minor,
                                   int* sms) {
  cudaDeviceProp prop;
  cudaError_t err = cudaGetDeviceProperties(&prop, device);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return (int)err;
  }
  if (len > 0) {
    strncpy(name, prop.name, (size_t)len - 1);
    name[len - 1] = '\0';
  }
  *major = prop.major;
  *minor = prop.minor;
  *sms = prop.multiProcessorCount;
  return 0;
}

extern "C" int opscuda_malloc(int device, opscuda_stream st, unsigned long long bytes,
                              opscuda_dptr* ptr) {
  *ptr = 0;
  cudaError_t err = enter(device, st);
  if (err != cudaSuccess) return (int)err;
  void* p = nullptr;
  err = scratch_alloc(device, (size_t)bytes, &p);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return (int)err;
  }
  *ptr = (opscuda_dptr)(uintptr_t)p;
  return 0;
}

extern "C" int opscuda_free(int device, opscuda_stream st, opscuda_dptr ptr) {
  cudaError_t err = enter(device, st);
  if (err != cudaSuccess) return (int)err;
  err = scratch_free(device, mptr<void>(ptr));
  if (err != cudaSuccess) (void)cudaGetLastError();
  return (int)err;
}

// Both copies are issued on the caller's stream (after the work queued there) and waited for, so
// the host buffer (Go memory) is not used after return and device-to-host data is in place.
extern "C" int opscuda_copy_to_device(int device, opscuda_stream st, opscuda_dptr dst,
                                      const void* src, unsigned long long bytes) {
  cudaError_t err = enter(device, st);
  if (err == cudaSuccess) {
    err = cudaMemcpyAsync(mptr<void>(dst), src, (size_t)bytes, cudaMemcpyHostToDevice, stream());
  }
  if (err == cudaSuccess) err = cudaStreamSynchronize(stream());
  if (err != cudaSuccess) (void)cudaGetLastError();
  return (int)err;
}

extern "C" int opscuda_copy_to_host(int device, opscuda_stream st, void* dst,
                                    opscuda_dptr src, unsigned long long bytes) {
  cudaError_t err = enter(device, st);
  if (err == cudaSuccess) {
    err = cudaMemcpyAsync(dst, cptr<void>(src), (size_t)bytes, cudaMemcpyDeviceToHost, stream());
  }
  if (err == cudaSuccess) err = cudaStreamSynchronize(stream());
  if (err != cudaSuccess) (void)cudaGetLastError();
  return (int)err;
}

extern "C" int opscuda_synchronize(int device) {
  cudaError_t err = enter(device);
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  if (err != cudaSuccess) (void)cudaGetLastError();
  return (int)err;
}

extern "C" const char* opscuda_error_name(int code) {
  const char* s = blas_error_name(code);
  return s != nullptr ? s : cudaGetErrorName((cudaError_t)code);
}
extern "C" const char* opscuda_error_string(int code) {
  const char* s = blas_error_string(code);
  return s != nullptr ? s : cudaGetErrorString((cudaError_t)code);
}
