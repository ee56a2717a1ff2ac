#ifndef SHARED_ZERO_CUH
#define SHARED_ZERO_CUH

#include <cuda_runtime.h>
#include <curand_kernel.h>

#ifdef MULTI_GPU
#include <nccl.h>
#ifdef USE_MPI
#include <mpi.h>
#endif
#endif

#endif // SHARED_ZERO_CUH
