// The CPU reference: a program that the test program includes.
#include <stdio.h>

float forward(float x) { return 2.0f * x; }

#ifndef TESTING
int main(void) {
  printf("%f\n", forward(1.0f));
  return 0;
}
#endif
