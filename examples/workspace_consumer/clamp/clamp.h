// C interface of the Clamp op's CUDA kernels, called from clamp.go through cgo.
#ifndef WORKSPACE_CONSUMER_CLAMP_CLAMP_H_
#define WORKSPACE_CONSUMER_CLAMP_CLAMP_H_

#ifdef __cplusplus
extern "C" {
#endif

// Queues y[i] = min(max(x[i], lo), hi) (NaN stays NaN) for n contiguous elements on `stream` (a
// cudaStream_t; 0: the legacy default stream) of `device`. dtype: OPSCUDA_FLOAT32 or
// OPSCUDA_FLOAT64 (ops/cuda/csrc/opscuda.h, cuda.DTypeCode). x and y are device addresses.
// Returns a cudaError_t (0: queued).
int clamp_forward(unsigned long long stream, int device, int dtype, unsigned long long x,
                  unsigned long long y, long long n, double lo, double hi);

// Queues gx[i] = lo <= x[i] <= hi ? g[i] : 0 (the gradient of Clamp at x, times g).
int clamp_backward(unsigned long long stream, int device, int dtype, unsigned long long g,
                   unsigned long long x, unsigned long long gx, long long n, double lo, double hi);

#ifdef __cplusplus
}
#endif

#endif  // WORKSPACE_CONSUMER_CLAMP_CLAMP_H_
