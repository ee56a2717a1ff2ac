#include "gemm.hxx"

int main() { return gemm_ok(nullptr) ? 0 : 1; }
