#include "dep/d.h"

__global__ void k() {}
