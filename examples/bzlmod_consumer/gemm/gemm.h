// C interface of the Gemm op's cuBLAS kernel, called from gemm.go through cgo.
#ifndef BZLMOD_CONSUMER_GEMM_GEMM_H_
#define BZLMOD_CONSUMER_GEMM_GEMM_H_

#ifdef __cplusplus
extern "C" {
#endif

// Queues the row-major product C[m][n] = A[m][k] * B[k][n] with cuBLAS (cublasSgemm for dtype
// OPSCUDA_FLOAT32, cublasDgemm for OPSCUDA_FLOAT64: ops/cuda/csrc/opscuda.h, cuda.DTypeCode) on
// `stream` (a cudaStream_t; 0: the legacy default stream) of `device`. a, b and c are device
// addresses of contiguous row-major matrices. Returns 0 when queued, a cudaError_t (> 0) for a
// CUDA runtime error, or minus a cublasStatus_t (< 0) for a cuBLAS error.
int gemm_cublas(unsigned long long stream, int device, int dtype, unsigned long long a,
                unsigned long long b, unsigned long long c, int m, int n, int k);

// The name of a code gemm_cublas returned, e.g. "cudaErrorInvalidValue" or
// "CUBLAS_STATUS_NOT_INITIALIZED".
const char* gemm_error_name(int code);

#ifdef __cplusplus
}
#endif

#endif  // BZLMOD_CONSUMER_GEMM_GEMM_H_
