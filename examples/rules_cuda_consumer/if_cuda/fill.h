#pragma once

// Fills out[0..n) with v on the GPU; returns 0 or the CUDA error code.
int fill_on_gpu(int* out, int n, int v);
