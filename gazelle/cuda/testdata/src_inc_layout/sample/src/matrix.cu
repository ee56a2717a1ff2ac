#include "matrix.h"

__global__ void scale_kernel(float* d, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] *= s;
}

void scale_matrix(Matrix m, float s) {
  int n = m.rows * m.cols;
  scale_kernel<<<(n + 127) / 128, 128>>>(m.data, n, s);
}
