#include <cstdio>
int main() { std::puts("two"); return 0; }
