// C interface of the Square op's CUDA kernel, called from square.go through cgo.
#ifndef RULES_CUDA_GO_OPS_EXAMPLES_SQUARE_SQUARE_H_
#define RULES_CUDA_GO_OPS_EXAMPLES_SQUARE_SQUARE_H_

#ifdef __cplusplus
extern "C" {
#endif

// Queues y[i] = x[i]*x[i] for n contiguous elements on `stream` (a cudaStream_t; 0: the legacy
// default stream) of `device`. dtype is the C ABI's code (OPSCUDA_FLOAT32, OPSCUDA_FLOAT64,
// OPSCUDA_FLOAT16 or OPSCUDA_BFLOAT16, as cuda.DTypeCode gives it); x and y are device
// addresses. Returns a cudaError_t (0: queued).
int square_launch(unsigned long long stream, int device, int dtype, unsigned long long x,
                  unsigned long long y, long long n);

#ifdef __cplusplus
}
#endif

#endif  // RULES_CUDA_GO_OPS_EXAMPLES_SQUARE_SQUARE_H_
