#pragma once
#include "types.h"

// Scales x on the GPU; implemented by a kernel library elsewhere.
int scale_run(Vec x, float s);
