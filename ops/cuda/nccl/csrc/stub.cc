// The C interface of ops/cuda/nccl for builds without the CUDA toolkit (--config=cpu): every call
// reports that NCCL is not part of the build.
#include "ops/cuda/nccl/csrc/opsnccl.h"

extern "C" {

int opsnccl_info(int* version, char* path, int len) {
  *version = 0;
  if (len > 0) path[0] = '\0';
  return OPSNCCL_ERROR_MISSING;
}
const char* opsnccl_load_error(void) {
  return "this binary was built without CUDA (--config=cpu), so without NCCL";
}
int opsnccl_unique_id(char*) { return OPSNCCL_ERROR_MISSING; }
int opsnccl_init(int n, const int*, const int*, int, const char*, opsnccl_comm* comms) {
  for (int i = 0; i < n; i++) comms[i] = 0;
  return OPSNCCL_ERROR_MISSING;
}
int opsnccl_split(int, const opsnccl_comm*) { return OPSNCCL_ERROR_MISSING; }
int opsnccl_status(opsnccl_comm, int* state) {
  *state = 0;
  return OPSNCCL_ERROR_MISSING;
}
int opsnccl_finalize(opsnccl_comm) { return OPSNCCL_ERROR_MISSING; }
int opsnccl_destroy(opsnccl_comm) { return OPSNCCL_ERROR_MISSING; }
int opsnccl_abort(opsnccl_comm) { return OPSNCCL_ERROR_MISSING; }
int opsnccl_run(const opsnccl_call*, int, int) { return OPSNCCL_ERROR_MISSING; }
int opsnccl_copy(int, unsigned long long, unsigned long long, unsigned long long,
                 unsigned long long) {
  return OPSNCCL_ERROR_MISSING;
}
int opsnccl_zero(int, unsigned long long, unsigned long long, unsigned long long) {
  return OPSNCCL_ERROR_MISSING;
}
const char* opsnccl_error_string(int) { return opsnccl_load_error(); }
const char* opsnccl_last_error(opsnccl_comm) { return ""; }

}  // extern "C"
