#pragma once
// Only the programs that compile kernels at run time include this one.
#include <nvrtc.h>
#include "helper_cuda.h"

inline const char* rtc_status(nvrtcResult r) { return nvrtcGetErrorString(r); }
