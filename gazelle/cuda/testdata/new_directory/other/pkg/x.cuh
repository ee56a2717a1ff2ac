#pragma once
__device__ inline int x_one() { return 1; }
