// __device__ helpers other targets' kernels call: relocatable device code (see BUILD.bazel).
#pragma once

// a*x*x + b*x + c by Horner's rule, with fused multiply-adds.
__device__ float quadratic(float x, float a, float b, float c);
