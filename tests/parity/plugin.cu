// A kernel that registers itself: nothing outside this file refers to it.
#include "tests/parity/registry.h"

__global__ void parity_plugin_kernel(float* x) { x[threadIdx.x] *= 2.0f; }

namespace {
struct Registration {
  Registration() { parity_register("plugin"); }
} registration;
}  // namespace
