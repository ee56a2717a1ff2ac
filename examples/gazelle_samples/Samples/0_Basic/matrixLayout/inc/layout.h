// A row-major matrix view and the operations of the matrixLayout sample.
#pragma once

struct RowMajor {
  int rows;
  int cols;
  float* data;
};

// Transposes src into dst (dst is cols x rows) on the device; returns a cudaError_t as int.
int transpose_on_device(RowMajor src, RowMajor dst);
