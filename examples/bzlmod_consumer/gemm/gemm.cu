// The Gemm op's CUDA kernel: cuBLAS (from @cuda//:cublas) on the tensors' device memory.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <mutex>

#include "gemm/gemm.h"
#include "ops/cuda/csrc/opscuda.h"

namespace {

constexpr int kMaxDevices = 64;

std::mutex handles_mu;
cublasHandle_t handles[kMaxDevices];

// The handle of `device` (the current device), created once and kept for the process: creating
// one allocates a workspace and costs far more than a small GEMM. The caller holds handles_mu
// while it sets the handle's stream and queues its GEMM.
cublasStatus_t handle_for(int device, cublasHandle_t* out) {
  if (!handles[device]) {
    cublasHandle_t h;
    cublasStatus_t st = cublasCreate(&h);
    if (st != CUBLAS_STATUS_SUCCESS) return st;
    handles[device] = h;
  }
  *out = handles[device];
  return CUBLAS_STATUS_SUCCESS;
}

int blas_code(cublasStatus_t st) { return st == CUBLAS_STATUS_SUCCESS ? 0 : -(int)st; }

}  // namespace

extern "C" int gemm_cublas(unsigned long long stream, int device, int dtype, unsigned long long a,
                           unsigned long long b, unsigned long long c, int m, int n, int k) {
  if (device < 0 || device >= kMaxDevices || m < 0 || n < 0 || k < 0 ||
      (dtype != OPSCUDA_FLOAT32 && dtype != OPSCUDA_FLOAT64)) {
    return (int)cudaErrorInvalidValue;
  }
  cudaError_t err = cudaSetDevice(device);
  if (err != cudaSuccess || m == 0 || n == 0) return (int)err;
  cudaStream_t s = stream == 0 ? cudaStreamLegacy : (cudaStream_t)stream;
  size_t elem = dtype == OPSCUDA_FLOAT32 ? sizeof(float) : sizeof(double);
  if (k == 0) {  // An empty sum: C = 0.
    return (int)cudaMemsetAsync((void*)c, 0, (size_t)m * n * elem, s);
  }
  std::lock_guard<std::mutex> lock(handles_mu);
  cublasHandle_t h;
  cublasStatus_t st = handle_for(device, &h);
  if (st == CUBLAS_STATUS_SUCCESS) st = cublasSetStream(h, s);
  if (st != CUBLAS_STATUS_SUCCESS) return blas_code(st);
  // cuBLAS is column-major, where a row-major matrix reads as its transpose: the row-major
  // C = A*B is the column-major C^T = B^T * A^T. So B (n x k, leading dimension n) goes first,
  // then A (k x m, leading dimension k), and C^T comes out n x m with leading dimension n, which
  // is row-major C.
  if (dtype == OPSCUDA_FLOAT32) {
    const float one = 1.0f, zero = 0.0f;
    st = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, (const float*)b, n, (const float*)a, k,
                     &zero, (float*)c, n);
  } else {
    const double one = 1.0, zero = 0.0;
    st = cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, (const double*)b, n, (const double*)a, k,
                     &zero, (double*)c, n);
  }
  return blas_code(st);
}

extern "C" const char* gemm_error_name(int code) {
  if (code < 0) return cublasGetStatusName((cublasStatus_t)-code);
  return cudaGetErrorName((cudaError_t)code);
}
