// C interface of the TiledMatMul example op's kernel, called from tiledmatmul.go through cgo.
#ifndef RULES_CUDA_GO_OPS_EXAMPLES_TILEDMATMUL_TILEDMATMUL_H_
#define RULES_CUDA_GO_OPS_EXAMPLES_TILEDMATMUL_TILEDMATMUL_H_

#ifdef __cplusplus
extern "C" {
#endif

// Queues c[M, N] (contiguous) = a[M, K] x b[K, N] on `stream` (a cudaStream_t; 0: the legacy
// default stream) of `device`, where element (i, k) of a is a[i*sa0 + k*sa1] and (k, j) of b is
// b[k*sb0 + j*sb1]. dtype is the C ABI's code (OPSCUDA_FLOAT32 or OPSCUDA_FLOAT64, as
// cuda.DTypeCode gives it); a, b and c are device addresses. Returns a cudaError_t (0: queued).
int tiledmatmul_launch(unsigned long long stream, int device, int dtype, unsigned long long c,
                       unsigned long long a, long long sa0, long long sa1, unsigned long long b,
                       long long sb0, long long sb1, long long M, long long N, long long K);

#ifdef __cplusplus
}
#endif

#endif  // RULES_CUDA_GO_OPS_EXAMPLES_TILEDMATMUL_TILEDMATMUL_H_
