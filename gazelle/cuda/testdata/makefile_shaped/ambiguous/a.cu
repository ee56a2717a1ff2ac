__device__ float twice(float x) { return 2 * x; }
int table[4] = {1, 2, 3, 4};
