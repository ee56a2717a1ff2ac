// Dynamic parallelism: a parent kernel that launches a child kernel per block from device code.
#ifndef TESTS_RDC_CDP_H_
#define TESTS_RDC_CDP_H_

#ifdef __cplusplus
extern "C" {
#endif

// cudaGetDeviceCount's error code and count.
int cdp_device_count(int* count);
// out[i] = 3 * in[i] + 1, computed by child kernels that a parent kernel launches from the device.
// Returns a cudaError_t.
int cdp_run(const float* in, float* out, int n);
// The name of a cudaError_t.
const char* cdp_error_name(int err);

#ifdef __cplusplus
}
#endif

#endif  // TESTS_RDC_CDP_H_
