// The profiler API headers are on every compile, as with a full CUDA install (no dep names them):
// cudaProfilerStart/Stop are the runtime's, cuProfilerStart the driver's. Without a GPU the
// runtime says so and the program exits 0.
#include <cudaProfiler.h>
#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>
#include <stdio.h>

int main(void) {
  cudaError_t err = cudaProfilerStart();
  printf("cudaProfilerStart: %s\n", cudaGetErrorName(err));
  if (err == cudaSuccess) err = cudaProfilerStop();
  // No GPU (100), no driver (35): linked and started, which is what this checks.
  return err == cudaSuccess || err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver ? 0 : 1;
}
