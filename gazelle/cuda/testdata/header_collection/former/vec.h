#pragma once
#include <cuda_runtime.h>
struct Vec { float* data; int n; };
