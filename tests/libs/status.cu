// Names of the status codes of the tests/libs functions, from each library's own naming function.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <curand.h>
#include <nvrtc.h>

#include "tests/libs/libs.h"

extern "C" const char* libs_detail_name(int status, int detail) {
  switch (status) {
    case LIBS_OK:
      return "success";
    case LIBS_NO_DEVICE:
    case LIBS_CUDA_ERROR:
      return cudaGetErrorName((cudaError_t)detail);
    case LIBS_CUBLAS_ERROR:
      return cublasGetStatusName((cublasStatus_t)detail);
    case LIBS_CURAND_ERROR:
      switch ((curandStatus_t)detail) {
        case CURAND_STATUS_VERSION_MISMATCH: return "CURAND_STATUS_VERSION_MISMATCH";
        case CURAND_STATUS_NOT_INITIALIZED: return "CURAND_STATUS_NOT_INITIALIZED";
        case CURAND_STATUS_ALLOCATION_FAILED: return "CURAND_STATUS_ALLOCATION_FAILED";
        case CURAND_STATUS_TYPE_ERROR: return "CURAND_STATUS_TYPE_ERROR";
        case CURAND_STATUS_OUT_OF_RANGE: return "CURAND_STATUS_OUT_OF_RANGE";
        case CURAND_STATUS_LENGTH_NOT_MULTIPLE: return "CURAND_STATUS_LENGTH_NOT_MULTIPLE";
        case CURAND_STATUS_DOUBLE_PRECISION_REQUIRED: return "CURAND_STATUS_DOUBLE_PRECISION_REQUIRED";
        case CURAND_STATUS_LAUNCH_FAILURE: return "CURAND_STATUS_LAUNCH_FAILURE";
        case CURAND_STATUS_PREEXISTING_FAILURE: return "CURAND_STATUS_PREEXISTING_FAILURE";
        case CURAND_STATUS_INITIALIZATION_FAILED: return "CURAND_STATUS_INITIALIZATION_FAILED";
        case CURAND_STATUS_ARCH_MISMATCH: return "CURAND_STATUS_ARCH_MISMATCH";
        case CURAND_STATUS_INTERNAL_ERROR: return "CURAND_STATUS_INTERNAL_ERROR";
        default: return "curandStatus_t (unknown)";
      }
    case LIBS_NVRTC_ERROR:
      return nvrtcGetErrorString((nvrtcResult)detail);
    case LIBS_BAD_ARGS:
      return "bad arguments";
  }
  return "unknown status";
}
