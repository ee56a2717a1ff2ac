// Shared by the cuRAND host-API programs of this folder.
#pragma once
#include <cstdio>
#include <curand.h>
#include <helper_check.h>

#define RAND_CHECK(call)                                                    \
  do {                                                                      \
    curandStatus_t rand_status_ = (call);                                   \
    if (rand_status_ != CURAND_STATUS_SUCCESS) {                            \
      std::fprintf(stderr, "%s:%d: cuRAND status %d\n", __FILE__, __LINE__, \
                   static_cast<int>(rand_status_));                         \
      return 1;                                                             \
    }                                                                       \
  } while (0)
