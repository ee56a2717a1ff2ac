// New: the directory is a library now, not a collection of headers.
#include "b.h"
__global__ void k() {}
