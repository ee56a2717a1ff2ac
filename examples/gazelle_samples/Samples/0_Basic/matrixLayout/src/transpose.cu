#include "layout.h"
#include <helper_grid.h>

__global__ void transpose_kernel(const float* in, float* out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

int transpose_on_device(RowMajor src, RowMajor dst) {
  dim3 threads(16, 16);
  dim3 blocks(blocks_for(src.cols, 16), blocks_for(src.rows, 16));
  transpose_kernel<<<blocks, threads>>>(src.data, dst.data, src.rows, src.cols);
  return static_cast<int>(cudaGetLastError());
}
