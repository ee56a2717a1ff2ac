#pragma once
#include <cuda_runtime.h>
extern "C" int run_kernel(int n);
int slow_helper(int n);
