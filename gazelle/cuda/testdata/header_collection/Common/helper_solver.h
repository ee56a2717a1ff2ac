#pragma once
#include <cusolverDn.h>

inline bool solver_ok(cusolverStatus_t s) { return s == CUSOLVER_STATUS_SUCCESS; }
