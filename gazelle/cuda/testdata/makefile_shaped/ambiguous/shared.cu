#include <cuda_runtime.h>
extern int table[4];
int first() { return table[0]; }
