// Host C++ (host.cpp, compiled by the C++ toolchain) calls CUDA code (device.cu, compiled by nvcc)
// with a Thrust type: both must name it the same, thrust::_V_<version>_SM_<archs>::host_vector.
#pragma once
#include <thrust/host_vector.h>

// Sorts v on the GPU; false (and v untouched) when there is none.
bool sort_on_device(thrust::host_vector<int> &v);
