// C interface of the Clamp op's CUDA kernels, called from clamp.go through cgo.
#ifndef WORKSPACE_CONSUMER_CLAMP_CLAMP_H_
#define WORKSPACE_CONSUMER_CLAMP_CLAMP_H_

#ifdef __cplusplus
extern "C" {
#endif

// Queues y[i] = min(max(x[i], lo), hi) (NaN stays NaN) for n contiguous elements on the legacy
// default stream of `device`. dtype: 0 float32, 1 float64. x and y are device addresses. Returns a
// cudaError_t (0: queued).
int clamp_forward(int device, int dtype, unsigned long long x, unsigned long long y, long long n,
                  double lo, double hi);

// Queues gx[i] = lo <= x[i] <= hi ? g[i] : 0 (the gradient of Clamp at x, times g).
int clamp_backward(int device, int dtype, unsigned long long g, unsigned long long x,
                   unsigned long long gx, long long n, double lo, double hi);

// The name of a cudaError_t, e.g. "cudaErrorInvalidValue".
const char* clamp_error_name(int code);

#ifdef __cplusplus
}
#endif

#endif  // WORKSPACE_CONSUMER_CLAMP_CLAMP_H_
