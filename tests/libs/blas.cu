// cuBLAS through @cuda//:cublas: a row-major fp32 GEMM on host arrays.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "tests/libs/libs.h"

namespace {

int cuda_status(cudaError_t err, int* detail) {
  *detail = (int)err;
  if (err == cudaSuccess) return LIBS_OK;
  if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver) return LIBS_NO_DEVICE;
  return LIBS_CUDA_ERROR;
}

int blas_status(cublasStatus_t st, int* detail) {
  *detail = (int)st;
  return st == CUBLAS_STATUS_SUCCESS ? LIBS_OK : LIBS_CUBLAS_ERROR;
}

// Frees what sgemm allocated, whichever step failed.
struct Resources {
  cublasHandle_t handle = nullptr;
  float* a = nullptr;
  float* b = nullptr;
  float* c = nullptr;
  ~Resources() {
    if (handle) cublasDestroy(handle);
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
  }
};

}  // namespace

extern "C" int libs_sgemm(int m, int n, int k, const float* a, const float* b, float* c, int* detail) {
  *detail = 0;
  if (m < 1 || n < 1 || k < 1 || !a || !b || !c) return LIBS_BAD_ARGS;
  // Ask the runtime first: without a GPU or driver cublasCreate only says NOT_INITIALIZED.
  int count = 0;
  int st = cuda_status(cudaGetDeviceCount(&count), detail);
  if (st != LIBS_OK) return st;
  if (count == 0) return cuda_status(cudaErrorNoDevice, detail);

  Resources r;
  size_t sa = (size_t)m * k * sizeof(float), sb = (size_t)k * n * sizeof(float), sc = (size_t)m * n * sizeof(float);
  if ((st = cuda_status(cudaMalloc(&r.a, sa), detail)) != LIBS_OK) return st;
  if ((st = cuda_status(cudaMalloc(&r.b, sb), detail)) != LIBS_OK) return st;
  if ((st = cuda_status(cudaMalloc(&r.c, sc), detail)) != LIBS_OK) return st;
  if ((st = cuda_status(cudaMemcpy(r.a, a, sa, cudaMemcpyHostToDevice), detail)) != LIBS_OK) return st;
  if ((st = cuda_status(cudaMemcpy(r.b, b, sb, cudaMemcpyHostToDevice), detail)) != LIBS_OK) return st;
  if ((st = blas_status(cublasCreate(&r.handle), detail)) != LIBS_OK) return st;
  // Plain fp32 (no TF32 tensor-core rounding), which the test's tolerance assumes.
  if ((st = blas_status(cublasSetMathMode(r.handle, CUBLAS_DEFAULT_MATH), detail)) != LIBS_OK) return st;

  // cuBLAS is column-major, and a row-major matrix is its transpose in column-major. So the
  // row-major C = A*B is the column-major C^T = B^T * A^T: pass B (n x k, ld n) first, then A
  // (k x m, ld k), and get C^T as an n x m column-major matrix with ld n, i.e. row-major C.
  const float one = 1.0f, zero = 0.0f;
  st = blas_status(cublasSgemm(r.handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, r.b, n, r.a, k, &zero, r.c, n), detail);
  if (st != LIBS_OK) return st;
  return cuda_status(cudaMemcpy(c, r.c, sc, cudaMemcpyDeviceToHost), detail);
}
