// A training program that the Makefile builds with -DENABLE_CUDNN, -DUSE_MPI or -DMULTI_GPU
// when asked; by default none of them is set.
#include <cuda_runtime.h>
#include <stdio.h>
#include "cfg/config.h"
// The cuDNN frontend is a header-only project of its own, not part of the toolkit.
#include <cudnn_frontend.h>

#ifdef ENABLE_CUDNN
#include <cudnn.h>
#include <cudnn_frontend.h>
#endif

#ifdef USE_MPI
#include <mpi.h>
#endif

#if MULTI_GPU
#include <nccl.h>
#endif

#if defined(USE_CUBLAS) && !defined(NO_BLAS)
#include <cublas_v2.h>
#elif LEVEL >= 2 || (1 << 3) == 9
#include <cublasLt.h>
#else
#include "fallback.cuh"
#endif

#ifdef _WIN32
#include <windows.h>
#include <d3d11.h>
#else
#include <unistd.h>
#endif

#if 0
#include "removed/long_ago.h"
#endif

#define WITH_SPARSE 1
#if WITH_SPARSE && !defined(NO_SPARSE)
#include <cusparse.h>
#endif
#undef WITH_SPARSE
#ifdef WITH_SPARSE
#include <cusolverDn.h>
#endif

#if HAVE_FFT
#include <cufft.h>
#endif

#if CUDART_VERSION >= 12000
#include <curand.h>
#endif

int main() { return 0; }
