// A __device__ function defined in rdc_scale.cu and called from rdc_kernel.cu: only relocatable
// device code (-rdc=true) and a device link make that call resolve.
#ifndef TESTS_CUDA_RDC_SCALE_CUH_
#define TESTS_CUDA_RDC_SCALE_CUH_

__device__ float rdc_scale(float x);

#endif  // TESTS_CUDA_RDC_SCALE_CUH_
