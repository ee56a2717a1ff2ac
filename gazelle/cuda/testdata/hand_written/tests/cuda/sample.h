// C interface of the sample kernel library (tests/cuda:sample), callable from cgo.
#ifndef RULES_CUDA_GO_TESTS_CUDA_SAMPLE_H_
#define RULES_CUDA_GO_TESTS_CUDA_SAMPLE_H_

#ifdef __cplusplus
extern "C" {
#endif

// Stores the number of CUDA devices in *count (0 when there are none or no driver) and returns
// the cudaError_t of cudaGetDeviceCount (0 on success).
int sample_device_count(int* count);

// Computes x[i] = a * x[i] + SAMPLE_OFFSET on device 0 for a host array of n floats (a
// grid-stride kernel); returns a cudaError_t (0 on success).
int sample_scale(float* x, float a, long long n);

// The name and description of a cudaError_t value.
const char* sample_error_name(int code);
const char* sample_error_string(int code);

#ifdef __cplusplus
}
#endif

#endif  // RULES_CUDA_GO_TESTS_CUDA_SAMPLE_H_
