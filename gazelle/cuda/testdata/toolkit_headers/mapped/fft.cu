#include <cufft.h>

__global__ void noop() {}
