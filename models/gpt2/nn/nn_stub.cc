// Package nn's C API for CPU-only builds (--config=cpu): the select() in BUILD.bazel's cu_deps
// links this instead of the kernels, so the package and its CPU kernels build and their tests
// run. Without CUDA no tensor is on a GPU, so these are never called; should one be, it reports
// cudaErrorNoDevice. Keep it in step with nn.h.
#include "models/gpt2/nn/nn.h"

namespace {
constexpr int kNoDevice = 100;  // cudaErrorNoDevice
}  // namespace

extern "C" {
int nn_embedding_forward(nn_ptr, int, int, nn_ptr, nn_ptr, nn_ptr, nn_ptr, long long, long long,
                         long long, long long) {
  return kNoDevice;
}
int nn_embedding_backward(nn_ptr, int, int, nn_ptr, nn_ptr, nn_ptr, nn_ptr, long long, long long,
                          long long, long long, long long) {
  return kNoDevice;
}
int nn_layernorm_forward(nn_ptr, int, int, nn_ptr, nn_ptr, nn_ptr, nn_ptr, long long, long long,
                         double) {
  return kNoDevice;
}
int nn_layernorm_backward(nn_ptr, int, int, nn_ptr, nn_ptr, nn_ptr, nn_ptr, nn_ptr, nn_ptr, nn_ptr,
                          long long, long long, double) {
  return kNoDevice;
}
int nn_bias_add(nn_ptr, int, int, nn_ptr, nn_ptr, nn_ptr, long long, long long) { return kNoDevice; }
int nn_bias_grad(nn_ptr, int, int, nn_ptr, nn_ptr, long long, long long) { return kNoDevice; }
int nn_gelu_forward(nn_ptr, int, int, nn_ptr, nn_ptr, long long) { return kNoDevice; }
int nn_gelu_backward(nn_ptr, int, int, nn_ptr, nn_ptr, nn_ptr, long long) { return kNoDevice; }
int nn_attention_forward(nn_ptr, int, int, nn_ptr, nn_ptr, long long, long long, long long,
                         long long) {
  return kNoDevice;
}
int nn_attention_backward(nn_ptr, int, int, nn_ptr, nn_ptr, nn_ptr, nn_ptr, nn_ptr, long long,
                          long long, long long, long long) {
  return kNoDevice;
}
int nn_cross_entropy_forward(nn_ptr, int, int, nn_ptr, nn_ptr, nn_ptr, nn_ptr, long long,
                             long long) {
  return kNoDevice;
}
int nn_cross_entropy_backward(nn_ptr, int, int, nn_ptr, nn_ptr, nn_ptr, nn_ptr, nn_ptr, long long,
                              long long) {
  return kNoDevice;
}
int nn_adamw(nn_ptr, int, int, nn_ptr, nn_ptr, nn_ptr, nn_ptr, long long, double, double, double,
             double, double, double) {
  return kNoDevice;
}
int nn_scale(nn_ptr, int, int, nn_ptr, long long, double) { return kNoDevice; }
}
