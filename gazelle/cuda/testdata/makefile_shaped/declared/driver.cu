#include <cstdio>
#include "kernel.h"

int main() {
  printf("%d\n", run_kernel(16));
  return 0;
}
