// Shared by the single-file programs of this folder: buffers and a launch check.
#pragma once
#include <helper_check.h>

inline cudaError_t device_buffer(float** p, int n) { return cudaMalloc(p, n * sizeof(float)); }

inline int blocks(int n) { return (n + 255) / 256; }
