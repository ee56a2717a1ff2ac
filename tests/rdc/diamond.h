// C API of the diamond sample: top -> {left, right} -> base, each its own cu_library with
// relocatable device code, device-linked once.
#ifndef TESTS_RDC_DIAMOND_H_
#define TESTS_RDC_DIAMOND_H_

#ifdef __cplusplus
extern "C" {
#endif

// out[i] = left_op(in[i]) + right_op(in[i]) = 4 * factor * in[i] + 1. Returns a cudaError_t.
int rdc_diamond(const float* in, float* out, int n);
// Sets base's __device__ g_factor. Returns a cudaError_t.
int rdc_set_factor(float f);
// cudaGetDeviceCount. Returns a cudaError_t.
int rdc_device_count(int* count);
// cudaGetErrorName.
const char* rdc_error_name(int code);

#ifdef __cplusplus
}
#endif

#endif  // TESTS_RDC_DIAMOND_H_
