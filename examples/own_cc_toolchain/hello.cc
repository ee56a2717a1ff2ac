#include <cstdio>

int main() {
  std::printf("hello from this module's own C++ toolchain\n");
  return 0;
}
