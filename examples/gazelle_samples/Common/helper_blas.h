// cuBLAS status checks: only the samples that call cuBLAS include this one, so only they link it.
#pragma once
#include <cstdio>
#include <cublas_v2.h>

#define BLAS_CHECK(call)                                                   \
  do {                                                                     \
    cublasStatus_t blas_status_ = (call);                                  \
    if (blas_status_ != CUBLAS_STATUS_SUCCESS) {                           \
      std::fprintf(stderr, "%s:%d: cuBLAS status %d\n", __FILE__, __LINE__, \
                   static_cast<int>(blas_status_));                        \
      return 1;                                                            \
    }                                                                      \
  } while (0)
