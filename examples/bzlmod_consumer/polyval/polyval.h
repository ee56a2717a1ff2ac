#ifndef POLYVAL_POLYVAL_H_
#define POLYVAL_POLYVAL_H_

#ifdef __cplusplus
extern "C" {
#endif

// y[i] = a*x[i]^2 + b*x[i] + c on the GPU (host arrays). Returns a cudaError_t.
int polyval_quadratic(const float* x, float* y, int n, float a, float b, float c);
// cudaGetDeviceCount. Returns a cudaError_t.
int polyval_device_count(int* count);

#ifdef __cplusplus
}
#endif

#endif  // POLYVAL_POLYVAL_H_
