// The C API of the relocatable-device-code sample (rdc_kernel.cu, rdc_scale.cu): a kernel in one
// file calls a __device__ function defined in the other, resolved by the device link.
#ifndef TESTS_CUDA_RDC_H_
#define TESTS_CUDA_RDC_H_

#ifdef __cplusplus
extern "C" {
#endif

// cudaGetDeviceCount; returns the cudaError_t.
int rdc_device_count(int* count);
// out[i] = rdc_scale(i) = 2*i + 1 for i < n, computed on the GPU; returns the cudaError_t.
int rdc_run(float* out, int n);

#ifdef __cplusplus
}
#endif

#endif  // TESTS_CUDA_RDC_H_
