#include <cufft.h>
#include <cufftXt.h>

#include "tests/libs/cufft/callback.h"

// The load callback: every input element is multiplied by *callerInfo on its way into the FFT.
__device__ cufftReal scale_load(void* data_in, size_t offset, void* caller_info, void* shared) {
  return static_cast<cufftReal*>(data_in)[offset] * *static_cast<float*>(caller_info);
}

__device__ cufftCallbackLoadR d_scale_load = scale_load;

extern "C" int fft_scaled(const float* in, int n, float scale, float* out) {
  cufftReal* d_in = nullptr;
  cufftComplex* d_out = nullptr;
  float* d_scale = nullptr;
  cufftHandle plan = 0;
  bool planned = false;
  int rc = 0;
  cufftCallbackLoadR h_load = nullptr;
  size_t in_bytes = sizeof(cufftReal) * static_cast<size_t>(n);
  size_t out_bytes = sizeof(cufftComplex) * static_cast<size_t>(n / 2 + 1);
  cudaError_t err = cudaMalloc(&d_in, in_bytes);
  if (err == cudaSuccess) err = cudaMalloc(&d_out, out_bytes);
  if (err == cudaSuccess) err = cudaMalloc(&d_scale, sizeof(float));
  if (err == cudaSuccess) err = cudaMemcpy(d_in, in, in_bytes, cudaMemcpyHostToDevice);
  if (err == cudaSuccess) err = cudaMemcpy(d_scale, &scale, sizeof(float), cudaMemcpyHostToDevice);
  if (err == cudaSuccess) err = cudaMemcpyFromSymbol(&h_load, d_scale_load, sizeof(h_load));
  if (err != cudaSuccess) {
    rc = -static_cast<int>(err);
    goto done;
  }
  if ((rc = cufftPlan1d(&plan, n, CUFFT_R2C, 1)) != CUFFT_SUCCESS) goto done;
  planned = true;
  if ((rc = cufftXtSetCallback(plan, reinterpret_cast<void**>(&h_load), CUFFT_CB_LD_REAL,
                               reinterpret_cast<void**>(&d_scale))) != CUFFT_SUCCESS)
    goto done;
  if ((rc = cufftExecR2C(plan, d_in, d_out)) != CUFFT_SUCCESS) goto done;
  err = cudaMemcpy(out, d_out, out_bytes, cudaMemcpyDeviceToHost);
  if (err != cudaSuccess) rc = -static_cast<int>(err);
done:
  if (planned) cufftDestroy(plan);
  cudaFree(d_in);
  cudaFree(d_out);
  cudaFree(d_scale);
  return rc;
}

extern "C" int fft_device_count(int* count) { return static_cast<int>(cudaGetDeviceCount(count)); }
