#include <helper_cuda.h>
#include <stopwatch.h>

__global__ void k() {}

int main(int argc, char** argv) {
  Stopwatch s;
  s.start();
  k<<<1, 1>>>();
  checkCuda(cudaDeviceSynchronize());
  return has_flag(argc, argv, "--fail") ? 1 : 0;
}
