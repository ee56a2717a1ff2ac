__global__ void plain(int* v) { v[0] = 1; }
