#ifndef OWN_CC_TOOLCHAIN_SCALE_H_
#define OWN_CC_TOOLCHAIN_SCALE_H_

#ifdef __cplusplus
extern "C" {
#endif

// Multiplies n floats at x (host memory) by a on the GPU; returns a cudaError_t (0 on success).
int scale(float* x, int n, float a);

#ifdef __cplusplus
}
#endif

#endif  // OWN_CC_TOOLCHAIN_SCALE_H_
