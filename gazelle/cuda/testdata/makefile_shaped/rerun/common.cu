#include <cstdio>
#include "common.h"

int main(int argc, char** argv) {
  printf("%s: %f\n", theEngine.name, theEngine.run(256));
  return 0;
}
