// C interface of the LeakyRelu op's CUDA kernels, called from leakyrelu.go through cgo.
#ifndef BZLMOD_CONSUMER_LEAKYRELU_LEAKYRELU_H_
#define BZLMOD_CONSUMER_LEAKYRELU_LEAKYRELU_H_

#ifdef __cplusplus
extern "C" {
#endif

// Queues y[i] = x[i] > 0 ? x[i] : slope*x[i] for n contiguous elements on the legacy default
// stream of `device`. dtype: 0 float32, 1 float64. x and y are device addresses. Returns a
// cudaError_t (0: queued).
int leakyrelu_forward(int device, int dtype, unsigned long long x, unsigned long long y, long long n,
                      double slope);

// Queues gx[i] = x[i] > 0 ? g[i] : slope*g[i] (the gradient of LeakyRelu at x, times g).
int leakyrelu_backward(int device, int dtype, unsigned long long g, unsigned long long x,
                       unsigned long long gx, long long n, double slope);

// The name of a cudaError_t, e.g. "cudaErrorInvalidValue".
const char* leakyrelu_error_name(int code);

#ifdef __cplusplus
}
#endif

#endif  // BZLMOD_CONSUMER_LEAKYRELU_LEAKYRELU_H_
