#pragma once

// 3 * scaled(x), from base (another target).
__device__ float right_op(float x);
