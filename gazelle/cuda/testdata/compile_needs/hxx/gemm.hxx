#pragma once
#include <cublas_v2.h>

inline int gemm_ok(cublasHandle_t) { return 1; }
