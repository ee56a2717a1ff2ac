// A real-to-complex FFT whose input passes through a cuFFT load callback (device code linked into
// the static cuFFT's kernels by the device link).
#ifndef TESTS_LIBS_CUFFT_CALLBACK_H_
#define TESTS_LIBS_CUFFT_CALLBACK_H_

#ifdef __cplusplus
extern "C" {
#endif

// out[k] (n/2+1 complex values, interleaved re/im) = FFT of scale*in[i], the scaling done by the
// load callback. Returns 0, or a negative cudaError_t, or a positive cufftResult.
int fft_scaled(const float* in, int n, float scale, float* out);
// cudaGetDeviceCount. Returns a cudaError_t.
int fft_device_count(int* count);

#ifdef __cplusplus
}
#endif

#endif  // TESTS_LIBS_CUFFT_CALLBACK_H_
