#include <cstdio>
int main() { std::puts("one"); return 0; }
