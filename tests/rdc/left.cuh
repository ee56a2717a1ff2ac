#pragma once

// scaled(x) + 1, from base (another target).
__device__ float left_op(float x);
