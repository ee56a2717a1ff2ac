#include <cstdio>
#include "kernels.cu"

float train_step() { return 0.5f; }

#ifndef TESTING
int main() { std::printf("%f\n", train_step()); return 0; }
#endif
