// Calls cuSOLVER only: it NEEDs libcusolver.so.<major>, which needs cuBLAS, cuBLASLt, cuSPARSE and
// nvJitLink itself. Those sit beside it (its $ORIGIN run path finds them), so the program starts
// though it does not NEED them. Runs without a GPU (the handle is not created there).
#include <cusolverDn.h>
#include <stdio.h>

int main(void) {
  int major = 0;
  cusolverStatus_t s = cusolverGetProperty(MAJOR_VERSION, &major);
  if (s != CUSOLVER_STATUS_SUCCESS) {
    fprintf(stderr, "cusolverGetProperty: status %d\n", (int)s);
    return 1;
  }
  cusolverDnHandle_t handle;
  s = cusolverDnCreate(&handle);
  printf("cuSOLVER %d: cusolverDnCreate status %d\n", major, (int)s);
  if (s == CUSOLVER_STATUS_SUCCESS) cusolverDnDestroy(handle);
  return 0;
}
