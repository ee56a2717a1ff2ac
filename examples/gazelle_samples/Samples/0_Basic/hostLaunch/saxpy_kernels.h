// Kernels defined in a header and launched from a .cpp file, as projects built with CMake's
// `set_source_files_properties(... LANGUAGE CUDA)` do: only nvcc can compile main.cpp.
#pragma once

__global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

inline void launch_saxpy(int n, float a, const float* x, float* y) {
  saxpy<<<(n + 255) / 256, 256>>>(n, a, x, y);
}
