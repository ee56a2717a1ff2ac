#include "shared/common_kernels.cu"

void launch(float* x) { scale<<<1, 32>>>(x, 2.0f); }
