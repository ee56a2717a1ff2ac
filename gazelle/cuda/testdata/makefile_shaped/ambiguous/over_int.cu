#include <cstdio>
void print_value(int v) { printf("%d\n", v); }
