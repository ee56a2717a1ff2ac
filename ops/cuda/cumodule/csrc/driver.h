// C interface of ops/cuda/cumodule, called from cgo: loading CUDA modules and launching their
// kernels through the CUDA driver API. Nothing links libcuda: the driver's entry points come from
// the CUDA runtime (cudaGetDriverEntryPoint, static cudart by default), which loads the driver on
// first use, so a program that carries this code starts without a driver and a GPU (the Go side
// checks for a device with ops/cuda before calling anything here).
//
// Handles (contexts, modules, functions) are passed as integers, so Go never holds them as
// pointers. Functions returning int return a CUresult (0 = CUDA_SUCCESS), except cumodule_init,
// which returns a cudaError_t.
#ifndef RULES_CUDA_GO_OPS_CUDA_INLINE_DRIVER_H_
#define RULES_CUDA_GO_OPS_CUDA_INLINE_DRIVER_H_

#ifdef __cplusplus
extern "C" {
#endif

typedef unsigned long long cumodule_handle;

// Initializes the runtime on device (cudaSetDevice), resolves the driver entry points this file
// uses (once per process) and retains the device's primary context, the one the runtime (and so
// ops/cuda) works in; *ctx is that context. Returns a cudaError_t; when the runtime succeeded but
// a driver call failed, *driver_error holds its CUresult (else 0).
int cumodule_init(int device, cumodule_handle* ctx, int* driver_error);

// Loads an image (cubin, fatbin, or NUL-terminated PTX) into ctx.
int cumodule_module_load(cumodule_handle ctx, const void* image, cumodule_handle* module);
int cumodule_module_unload(cumodule_handle ctx, cumodule_handle module);
// Looks up a kernel of module by name.
int cumodule_module_function(cumodule_handle ctx, cumodule_handle module, const char* name,
                           cumodule_handle* function);
// Launches function on stream (a cudaStream_t; 0 is the legacy default stream) with nparams
// parameters of 8 bytes each (values narrower than 8 bytes in the low bytes).
int cumodule_launch(cumodule_handle ctx, cumodule_handle function, unsigned gx, unsigned gy, unsigned gz,
                  unsigned bx, unsigned by, unsigned bz, unsigned shared_bytes, cumodule_handle stream,
                  const unsigned long long* params, int nparams);

// The name (e.g. "CUDA_ERROR_NOT_FOUND") and description of a CUresult; "" when the driver's
// entry points are not resolved.
const char* cumodule_driver_error_name(int code);
const char* cumodule_driver_error_string(int code);
// The name and description of a cudaError_t.
const char* cumodule_runtime_error_name(int code);
const char* cumodule_runtime_error_string(int code);

#ifdef __cplusplus
}
#endif

#endif  // RULES_CUDA_GO_OPS_CUDA_INLINE_DRIVER_H_
