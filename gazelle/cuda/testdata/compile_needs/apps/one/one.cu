#include "lib_utils.h"

int main() {
  CHECK(cudaDeviceSynchronize());
  return 0;
}
