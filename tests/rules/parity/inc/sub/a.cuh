// A public header that dependents include under a prefix (strip_include_prefix, include_prefix).
#pragma once
__device__ inline float parity_twice(float x) { return 2.0f * x; }
