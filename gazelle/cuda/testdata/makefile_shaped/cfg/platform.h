#pragma once
#include <cuda_runtime.h>
#if defined(OS_LINUX)
#include <unistd.h>
#else
#include "win_compat.h"
#endif
#if USE_BLAS == 2
#include <cublas_v2.h>
#endif
