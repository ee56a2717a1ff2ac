#include "other/pkg/x.cuh"
int helper() { return 0; }
