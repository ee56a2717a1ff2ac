// The C interface of ops/cuda for builds without the CUDA toolkit (--config=cpu): every call
// reports that there is no CUDA device, so the Go package builds, registers its backend and says
// why it cannot allocate, while CPU ops work as usual. The functions come from the one list in
// opscuda.h (OPSCUDA_API), so this file never repeats a signature; callers read no output
// parameter of a call that failed.
#include <stddef.h>

#include "ops/cuda/csrc/opscuda.h"

namespace {
constexpr int kNoDevice = 100;  // cudaErrorNoDevice
}

extern "C" {

#define OPSCUDA_STUB(name, params) \
  int opscuda_##name params { return kNoDevice; }
OPSCUDA_API(OPSCUDA_STUB)
#undef OPSCUDA_STUB

const char* opscuda_error_name(int code) {
  return code == kNoDevice ? "cudaErrorNoDevice" : "cudaErrorUnknown";
}
const char* opscuda_error_string(int) {
  return "this binary was built without CUDA (--config=cpu)";
}

}  // extern "C"
