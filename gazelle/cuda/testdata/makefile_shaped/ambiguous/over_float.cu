#include <cstdio>
void print_value(float v) { printf("%f\n", v); }
