// The nvcc habit: rdc = True on a library of __device__ functions and on the library that calls
// them, each with the default device_link = True.
#pragma once

// factor * x, factor a __device__ variable of this library (2 until set_twice_factor changes it,
// declared in habit.h for host code).
__device__ float twice(float x);
