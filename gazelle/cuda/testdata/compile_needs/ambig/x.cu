#include "same.h"

__global__ void k() {}
