// Included as "vendor/parity/scale.cuh" (strip_include_prefix = "include", include_prefix = "vendor").
#ifndef TESTS_PARITY_SCALE_CUH_
#define TESTS_PARITY_SCALE_CUH_

__host__ __device__ inline float parity_scale(float x) { return 3.0f * x; }

#endif  // TESTS_PARITY_SCALE_CUH_
