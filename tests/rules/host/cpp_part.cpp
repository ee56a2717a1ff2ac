// A C++ source of a cu_library: host C++, compiled without nvcc's macros.
#if defined(__NVCC__) && !defined(__CUDACC__)
#error "host C++ compiled through nvcc"
#endif

#if __cplusplus < 201703L
#error "host C++ below C++17, which the CUDA and CCCL headers expect"
#endif

int cpp_part(int x) { return 2 * x; }
