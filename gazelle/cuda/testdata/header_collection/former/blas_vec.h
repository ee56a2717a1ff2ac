#pragma once
#include <cublas_v2.h>
#include "vec.h"
inline cublasStatus_t vec_scale(cublasHandle_t h, Vec v, float a) { return cublasSscal(h, v.n, &a, v.data, 1); }
