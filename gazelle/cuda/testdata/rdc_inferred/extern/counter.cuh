#pragma once
extern __device__ unsigned int hits;
__device__ float scaled(float x);
