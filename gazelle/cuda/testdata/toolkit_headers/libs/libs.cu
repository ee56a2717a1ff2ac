#include <cublas_v2.h>
#include "cublasLt.h"
#include <cufft.h>
#include <cufftw.h>
#include <curand.h>
#include <curand_kernel.h>
#include <cusparse.h>
#include <cusolverDn.h>
#include <nvrtc.h>
#include <nvJitLink.h>
#include <nvtx3/nvToolsExt.h>
#include <cudnn.h>
#include <nccl.h>

__global__ void noop() {}
