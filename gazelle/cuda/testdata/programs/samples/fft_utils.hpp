#pragma once
#include <cufft.h>
#include "sample_utils.h"

inline const char* fft_status(cufftResult r) { return r == CUFFT_SUCCESS ? "ok" : "error"; }
