// A C++ source of a cu_library: host C++, compiled without nvcc's macros.
#if defined(__NVCC__) && !defined(__CUDACC__)
#error "host C++ compiled through nvcc"
#endif

int cpp_part(int x) { return 2 * x; }
