#pragma once

// Multiplies x[0..n) by a on the GPU. Returns 0, or the CUDA error code (100: no device).
int scale_on_gpu(float a, float* x, int n);
