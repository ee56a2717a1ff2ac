#include <cstdio>

__global__ void hello() {}

int main(int argc, char** argv) {
  hello<<<1, 1>>>();
  std::printf("launched\n");
  return 0;
}
