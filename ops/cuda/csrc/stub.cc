// The C interface of ops/cuda for builds without the CUDA toolkit (--config=cpu): every call
// reports that there is no CUDA device, so the Go package builds, registers its backend and says
// why it cannot allocate, while CPU ops work as usual.
#include <stddef.h>

#include "ops/cuda/csrc/opscuda.h"

namespace {
constexpr int kNoDevice = 100;  // cudaErrorNoDevice
}

extern "C" {

int opscuda_device_count(int* count) {
  *count = 0;
  return kNoDevice;
}
int opscuda_device_info(int, char* name, int len, int* major, int* minor, int* sms) {
  if (len > 0) name[0] = '\0';
  *major = *minor = *sms = 0;
  return kNoDevice;
}
int opscuda_malloc(int, unsigned long long, opscuda_dptr* ptr) {
  *ptr = 0;
  return kNoDevice;
}
int opscuda_free(int, opscuda_dptr) { return kNoDevice; }
int opscuda_copy_to_device(int, opscuda_dptr, const void*, unsigned long long) { return kNoDevice; }
int opscuda_copy_to_host(int, void*, opscuda_dptr, unsigned long long) { return kNoDevice; }
int opscuda_synchronize(int) { return kNoDevice; }
const char* opscuda_error_name(int code) {
  return code == kNoDevice ? "cudaErrorNoDevice" : "cudaErrorUnknown";
}
const char* opscuda_error_string(int) {
  return "this binary was built without CUDA (--config=cpu)";
}

int opscuda_add_scalar(const opscuda_ew*, double) { return kNoDevice; }
int opscuda_scale(const opscuda_ew*, double) { return kNoDevice; }
int opscuda_axpby(const opscuda_ew*, double, double) { return kNoDevice; }
int opscuda_polynomial(const opscuda_ew*, double, double, double, double) { return kNoDevice; }
int opscuda_polynomial_backward(const opscuda_ew*, double, double, double) { return kNoDevice; }
int opscuda_copy(const opscuda_ew*) { return kNoDevice; }
int opscuda_norm_backward(const opscuda_ew*, opscuda_dptr, opscuda_dptr) { return kNoDevice; }
int opscuda_norm(const opscuda_ew*) { return kNoDevice; }
int opscuda_narrow_backward(int, int, opscuda_dptr, opscuda_dptr, int, const long long*,
                            const long long*, int, long long, long long) {
  return kNoDevice;
}
int opscuda_row_softmax(int, int, opscuda_dptr, opscuda_dptr, long long, long long, long long,
                        long long) {
  return kNoDevice;
}
int opscuda_row_softmax_backward(int, int, opscuda_dptr, opscuda_dptr, long long, long long,
                                 opscuda_dptr, long long, long long, long long, long long) {
  return kNoDevice;
}
int opscuda_matmul(int, int, opscuda_dptr, opscuda_dptr, long long, long long, opscuda_dptr,
                   long long, long long, long long, long long, long long) {
  return kNoDevice;
}

}  // extern "C"
