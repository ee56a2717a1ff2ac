// The C API of leakyrelu.h for CPU-only builds (--config=cpu, where leakyrelu_cu compiles
// nothing): BUILD.bazel links this instead through the select() in cu_deps. The launchers are
// never called, because without CUDA no tensor is on a GPU and ops runs the CPU kernels; should
// one be called anyway, it reports cudaErrorNoDevice. Keep it in step with leakyrelu.h.
#include "leakyrelu/leakyrelu.h"

namespace {
constexpr int kNoDevice = 100;  // cudaErrorNoDevice
}  // namespace

extern "C" int leakyrelu_forward(unsigned long long, int, int, unsigned long long, unsigned long long,
                                 long long, double) {
  return kNoDevice;
}

extern "C" int leakyrelu_backward(unsigned long long, int, int, unsigned long long, unsigned long long,
                                  unsigned long long, long long, double) {
  return kNoDevice;
}
