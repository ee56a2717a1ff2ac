#ifndef TESTS_RDC_CHAIN_H_
#define TESTS_RDC_CHAIN_H_

#ifdef __cplusplus
extern "C" {
#endif

// data[i] = multiplyByTwo(data[i]) on the GPU, multiplyByTwo from another target. cudaError_t.
int rdc_chain(float* data, int n);
// cudaGetDeviceCount. Returns a cudaError_t.
int rdc_chain_device_count(int* count);

#ifdef __cplusplus
}
#endif

#endif  // TESTS_RDC_CHAIN_H_
