#include <lib_utils.h>

int main() {
  CHECK(cudaSetDevice(0));
  return 0;
}
