#include <cstdio>
int run_benchmark(int n);
int main() { printf("%d\n", run_benchmark(8)); return 0; }
