// The shared rdc part of the diamond: a __device__ variable and function other targets' kernels use.
#pragma once

extern __device__ float g_factor;

__device__ float scaled(float x);
