// The driver API for ops/cuda/cumodule, through entry points the CUDA runtime hands out (see
// driver.h): the runtime loads libcuda.so.1 with dlopen on first use, so nothing here makes a
// program need the driver to start. The function types are the toolkit's own (cudaTypedefs.h).
#include "ops/cuda/cumodule/csrc/driver.h"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <atomic>
#include <mutex>
#include <vector>

namespace {

// The driver functions this file calls, at the ABI versions of their types.
struct Driver {
  PFN_cuGetErrorName_v6000 error_name;
  PFN_cuGetErrorString_v6000 error_string;
  PFN_cuDeviceGet_v2000 device_get;
  PFN_cuDevicePrimaryCtxRetain_v7000 primary_ctx_retain;
  PFN_cuCtxGetCurrent_v4000 ctx_get_current;
  PFN_cuCtxSetCurrent_v4000 ctx_set_current;
  PFN_cuModuleLoadData_v2000 module_load_data;
  PFN_cuModuleUnload_v2000 module_unload;
  PFN_cuModuleGetFunction_v2000 module_get_function;
  PFN_cuLaunchKernel_v4000 launch_kernel;
};

Driver g_driver;
std::atomic<bool> g_resolved{false};
std::mutex g_mu;                     // guards resolving and g_contexts
std::vector<CUcontext> g_contexts;  // retained primary contexts by device (nullptr: not yet)

// One entry point of the driver, at the ABI version of its PFN_..._vNNNN type (`version`), so a
// program built with a newer toolkit than the driver's CUDA version still finds it (asking for
// CUDART_VERSION fails with cudaErrorInvalidValue on an older driver). Legacy-stream versions:
// stream 0 is the legacy default stream, as in ops/cuda (nvcc's default --default-stream=legacy).
cudaError_t entry_point(const char* symbol, int version, void** fn) {
  *fn = nullptr;
#if CUDART_VERSION >= 12050
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSuccess;
  cudaError_t err =
      cudaGetDriverEntryPointByVersion(symbol, fn, version, cudaEnableLegacyStream, &found);
#elif CUDART_VERSION >= 12000
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSuccess;
  cudaError_t err = cudaGetDriverEntryPoint(symbol, fn, cudaEnableLegacyStream, &found);
#else
  cudaError_t err = cudaGetDriverEntryPoint(symbol, fn, cudaEnableLegacyStream);
#endif
  (void)version;
  if (err == cudaSuccess && *fn == nullptr) err = cudaErrorSymbolNotFound;
  return err;
}

// Resolves every entry point of Driver, once; g_mu must be held.
cudaError_t resolve() {
  if (g_resolved.load(std::memory_order_acquire)) return cudaSuccess;
  struct Sym {
    const char* name;
    int version;  // the N of the field's PFN_<name>_vN type
    void** slot;
  };
  Driver d;
  const Sym syms[] = {
      {"cuGetErrorName", 6000, reinterpret_cast<void**>(&d.error_name)},
      {"cuGetErrorString", 6000, reinterpret_cast<void**>(&d.error_string)},
      {"cuDeviceGet", 2000, reinterpret_cast<void**>(&d.device_get)},
      {"cuDevicePrimaryCtxRetain", 7000, reinterpret_cast<void**>(&d.primary_ctx_retain)},
      {"cuCtxGetCurrent", 4000, reinterpret_cast<void**>(&d.ctx_get_current)},
      {"cuCtxSetCurrent", 4000, reinterpret_cast<void**>(&d.ctx_set_current)},
      {"cuModuleLoadData", 2000, reinterpret_cast<void**>(&d.module_load_data)},
      {"cuModuleUnload", 2000, reinterpret_cast<void**>(&d.module_unload)},
      {"cuModuleGetFunction", 2000, reinterpret_cast<void**>(&d.module_get_function)},
      {"cuLaunchKernel", 4000, reinterpret_cast<void**>(&d.launch_kernel)},
  };
  for (const Sym& s : syms) {
    cudaError_t err = entry_point(s.name, s.version, s.slot);
    if (err != cudaSuccess) return err;
  }
  g_driver = d;
  g_resolved.store(true, std::memory_order_release);
  return cudaSuccess;
}

// Makes ctx current on the calling thread (a no-op when it already is).
CUresult enter(cumodule_handle ctx) {
  if (!g_resolved.load(std::memory_order_acquire)) return CUDA_ERROR_NOT_INITIALIZED;
  CUcontext want = reinterpret_cast<CUcontext>(ctx);
  CUcontext current = nullptr;
  CUresult r = g_driver.ctx_get_current(&current);
  if (r == CUDA_SUCCESS && current != want) r = g_driver.ctx_set_current(want);
  return r;
}

}  // namespace

extern "C" int cumodule_init(int device, cumodule_handle* ctx, int* driver_error) {
  *ctx = 0;
  *driver_error = 0;
  if (device < 0) return cudaErrorInvalidDevice;
  // cudaFree(nullptr) makes the runtime create the device's primary context now (cudaSetDevice
  // alone does not before CUDA 12).
  cudaError_t err = cudaSetDevice(device);
  if (err == cudaSuccess) err = cudaFree(nullptr);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return err;
  }
  std::lock_guard<std::mutex> lock(g_mu);
  err = resolve();
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return err;
  }
  if (static_cast<size_t>(device) < g_contexts.size() && g_contexts[device] != nullptr) {
    *ctx = reinterpret_cast<cumodule_handle>(g_contexts[device]);
    return cudaSuccess;
  }
  // Retained once per device and never released: the runtime keeps it for the process too.
  CUdevice dev = 0;
  CUcontext c = nullptr;
  CUresult r = g_driver.device_get(&dev, device);
  if (r == CUDA_SUCCESS) r = g_driver.primary_ctx_retain(&c, dev);
  if (r != CUDA_SUCCESS) {
    *driver_error = r;
    return cudaSuccess;
  }
  if (g_contexts.size() <= static_cast<size_t>(device)) g_contexts.resize(device + 1, nullptr);
  g_contexts[device] = c;
  *ctx = reinterpret_cast<cumodule_handle>(c);
  return cudaSuccess;
}

extern "C" int cumodule_module_load(cumodule_handle ctx, const void* image, cumodule_handle* module) {
  *module = 0;
  CUresult r = enter(ctx);
  if (r != CUDA_SUCCESS) return r;
  CUmodule m = nullptr;
  r = g_driver.module_load_data(&m, image);
  if (r == CUDA_SUCCESS) *module = reinterpret_cast<cumodule_handle>(m);
  return r;
}

extern "C" int cumodule_module_unload(cumodule_handle ctx, cumodule_handle module) {
  CUresult r = enter(ctx);
  if (r != CUDA_SUCCESS) return r;
  return g_driver.module_unload(reinterpret_cast<CUmodule>(module));
}

extern "C" int cumodule_module_function(cumodule_handle ctx, cumodule_handle module, const char* name,
                                      cumodule_handle* function) {
  *function = 0;
  CUresult r = enter(ctx);
  if (r != CUDA_SUCCESS) return r;
  CUfunction f = nullptr;
  r = g_driver.module_get_function(&f, reinterpret_cast<CUmodule>(module), name);
  if (r == CUDA_SUCCESS) *function = reinterpret_cast<cumodule_handle>(f);
  return r;
}

extern "C" int cumodule_launch(cumodule_handle ctx, cumodule_handle function, unsigned gx, unsigned gy,
                             unsigned gz, unsigned bx, unsigned by, unsigned bz,
                             unsigned shared_bytes, cumodule_handle stream,
                             const unsigned long long* params, int nparams) {
  CUresult r = enter(ctx);
  if (r != CUDA_SUCCESS) return r;
  if (nparams < 0) return CUDA_ERROR_INVALID_VALUE;
  // cuLaunchKernel takes a pointer to each parameter's value and copies the values.
  constexpr int kOnStack = 32;
  void* on_stack[kOnStack];
  std::vector<void*> on_heap;
  void** args = on_stack;
  if (nparams > kOnStack) {
    on_heap.resize(nparams);
    args = on_heap.data();
  }
  for (int i = 0; i < nparams; i++) args[i] = const_cast<unsigned long long*>(&params[i]);
  return g_driver.launch_kernel(reinterpret_cast<CUfunction>(function), gx, gy, gz, bx, by, bz,
                                shared_bytes, reinterpret_cast<CUstream>(stream),
                                nparams > 0 ? args : nullptr, nullptr);
}

extern "C" const char* cumodule_driver_error_name(int code) {
  const char* s = nullptr;
  if (!g_resolved.load(std::memory_order_acquire) ||
      g_driver.error_name(static_cast<CUresult>(code), &s) != CUDA_SUCCESS || s == nullptr) {
    return "";
  }
  return s;
}

extern "C" const char* cumodule_driver_error_string(int code) {
  const char* s = nullptr;
  if (!g_resolved.load(std::memory_order_acquire) ||
      g_driver.error_string(static_cast<CUresult>(code), &s) != CUDA_SUCCESS || s == nullptr) {
    return "";
  }
  return s;
}

extern "C" const char* cumodule_runtime_error_name(int code) {
  return cudaGetErrorName(static_cast<cudaError_t>(code));
}

extern "C" const char* cumodule_runtime_error_string(int code) {
  return cudaGetErrorString(static_cast<cudaError_t>(code));
}
