#include "kernel.h"
extern "C" int run_kernel(int n) { return n; }
