// simpleSeparateCompilation's split: the __device__ function lives in one target, the kernel
// that calls it in another.
#pragma once

__device__ float multiplyByTwo(float x);
