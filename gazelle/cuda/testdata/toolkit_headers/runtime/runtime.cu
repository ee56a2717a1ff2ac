#include "cuda_runtime.h"
#include "cuda_fp16.h"
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <cub/cub.cuh>
#include <cuda/std/atomic>
#include <mma.h>

__global__ void noop() {}
