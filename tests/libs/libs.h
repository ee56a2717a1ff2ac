// C interface of tests/libs: thin wrappers around cuBLAS, cuRAND and NVRTC, linked through the
// @cuda//:cublas, @cuda//:curand and @cuda//:nvrtc targets and called from Go through cgo.
#ifndef RULES_CUDA_GO_TESTS_LIBS_LIBS_H_
#define RULES_CUDA_GO_TESTS_LIBS_LIBS_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// Status codes. *detail receives the library's own code (cudaError_t, cublasStatus_t,
// curandStatus_t or nvrtcResult) where there is one, else 0.
enum {
  LIBS_OK = 0,
  // No usable GPU: cudaErrorNoDevice or cudaErrorInsufficientDriver (detail: the cudaError_t).
  LIBS_NO_DEVICE = 1,
  // Any other CUDA runtime error (detail: the cudaError_t).
  LIBS_CUDA_ERROR = 2,
  // A cuBLAS call failed (detail: the cublasStatus_t).
  LIBS_CUBLAS_ERROR = 3,
  // A cuRAND call failed (detail: the curandStatus_t).
  LIBS_CURAND_ERROR = 4,
  // An NVRTC call failed (detail: the nvrtcResult; NVRTC_ERROR_COMPILATION = 6 for bad source).
  LIBS_NVRTC_ERROR = 5,
  // Bad arguments (sizes < 1, null pointers).
  LIBS_BAD_ARGS = 6,
};

// Row-major C[m][n] = A[m][k] * B[k][n] in fp32 with cublasSgemm on device 0. a, b and c are host
// arrays; they are copied to the device and c back.
int libs_sgemm(int m, int n, int k, const float* a, const float* b, float* c, int* detail);

// The name of a cudaError_t, cublasStatus_t, curandStatus_t or nvrtcResult, for a status code.
const char* libs_detail_name(int status, int detail);

// Fills out[0..n) with uniform floats in (0, 1] from cuRAND's host generator
// (CURAND_RNG_PSEUDO_PHILOX4_32_10, seeded with seed); needs no GPU.
int libs_curand_uniform_host(unsigned long long seed, float* out, size_t n, int* detail);

// The NVRTC version.
int libs_nvrtc_version(int* major, int* minor);

// Compiles the CUDA C++ source src (program name `name`, used in the log) with NVRTC and the
// options opts[0..nopts). When name_expr is not NULL it is registered with
// nvrtcAddNameExpression and *lowered receives its lowered (mangled) name. With cubin != 0,
// *code receives the CUBIN (nvrtcGetCUBIN), else the PTX (nvrtcGetPTX, without the trailing NUL).
// *log receives the program log, also when compilation fails. *code, *log and *lowered are
// malloc'ed (NULL when absent); the caller frees them.
int libs_nvrtc_compile(const char* src, const char* name, const char* const* opts, int nopts,
                       const char* name_expr, int cubin, char** code, size_t* code_len, char** log,
                       char** lowered, int* detail);

#ifdef __cplusplus
}
#endif

#endif  // RULES_CUDA_GO_TESTS_LIBS_LIBS_H_
