// A training step that programs include textually (#include "tests/rules/textual/train.cu").
__global__ void step(float* w) { w[threadIdx.x] -= 0.1f; }
