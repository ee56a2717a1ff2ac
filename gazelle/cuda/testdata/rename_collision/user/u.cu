#include <cuda_runtime.h>
#include "pkg/k.h"

extern "C" int u() { return 0; }
