// C interface of the Square op's CUDA kernel, called from square.go through cgo.
#ifndef RULES_CUDA_GO_OPS_EXAMPLES_SQUARE_SQUARE_H_
#define RULES_CUDA_GO_OPS_EXAMPLES_SQUARE_SQUARE_H_

#ifdef __cplusplus
extern "C" {
#endif

// Queues y[i] = x[i]*x[i] for n contiguous elements on the legacy default stream of `device`.
// dtype: 0 float32, 1 float64. x and y are device addresses. Returns a cudaError_t (0: queued).
int square_launch(int device, int dtype, unsigned long long x, unsigned long long y, long long n);

// The name of a cudaError_t, e.g. "cudaErrorInvalidValue".
const char* square_error_name(int code);

#ifdef __cplusplus
}
#endif

#endif  // RULES_CUDA_GO_OPS_EXAMPLES_SQUARE_SQUARE_H_
