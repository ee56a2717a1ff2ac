#pragma once
// Build configuration: this repository always has cuFFT.
#define HAVE_FFT 1
#include <cuda_runtime.h>
