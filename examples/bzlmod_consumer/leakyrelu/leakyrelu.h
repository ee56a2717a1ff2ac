// C interface of the LeakyRelu op's CUDA kernels, called from leakyrelu.go through cgo.
#ifndef BZLMOD_CONSUMER_LEAKYRELU_LEAKYRELU_H_
#define BZLMOD_CONSUMER_LEAKYRELU_LEAKYRELU_H_

#ifdef __cplusplus
extern "C" {
#endif

// Queues y[i] = x[i] > 0 ? x[i] : slope*x[i] for n contiguous elements on `stream` (a
// cudaStream_t; 0: the legacy default stream) of `device`. dtype: OPSCUDA_FLOAT32 or
// OPSCUDA_FLOAT64 (ops/cuda/csrc/opscuda.h, cuda.DTypeCode). x and y are device addresses.
// Returns a cudaError_t (0: queued).
int leakyrelu_forward(unsigned long long stream, int device, int dtype, unsigned long long x,
                      unsigned long long y, long long n, double slope);

// Queues gx[i] = x[i] > 0 ? g[i] : slope*g[i] (the gradient of LeakyRelu at x, times g).
int leakyrelu_backward(unsigned long long stream, int device, int dtype, unsigned long long g,
                       unsigned long long x, unsigned long long gx, long long n, double slope);

#ifdef __cplusplus
}
#endif

#endif  // BZLMOD_CONSUMER_LEAKYRELU_LEAKYRELU_H_
