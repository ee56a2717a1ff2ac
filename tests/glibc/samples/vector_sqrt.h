// A cuda-samples-style program's CUDA part: y = sqrt(x) on the GPU, with a C ABI.
#ifndef TESTS_GLIBC_SAMPLES_VECTOR_SQRT_H_
#define TESTS_GLIBC_SAMPLES_VECTOR_SQRT_H_

#ifdef __cplusplus
extern "C" {
#endif

// cudaGetDeviceCount's error code and count.
int vs_device_count(int* count);
// y[i] = sqrtf(x[i]) for i < n, computed on the GPU; returns a cudaError_t.
int vs_sqrt(const float* x, float* y, int n);
// The name of a cudaError_t.
const char* vs_error_name(int err);
// The GPU's name, parsed on the host from the device properties (strtol on the PCI ids).
int vs_describe(char* out, int size);

#ifdef __cplusplus
}
#endif

#endif  // TESTS_GLIBC_SAMPLES_VECTOR_SQRT_H_
