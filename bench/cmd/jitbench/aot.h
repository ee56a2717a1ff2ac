// C interface of jitbench's ahead-of-time kernel: jitsilu's forward kernel built by a cu_library,
// to compare its launch cost with the same kernel compiled by NVRTC.
#ifndef RULES_CUDA_GO_OPS_CUDA_JIT_CMD_JITBENCH_AOT_H_
#define RULES_CUDA_GO_OPS_CUDA_JIT_CMD_JITBENCH_AOT_H_

#ifdef __cplusplus
extern "C" {
#endif

// Launches silu_forward<float>(y, x, n) with blocks x threads on the legacy default stream of
// the current device; returns the cudaError_t of the launch.
int jitbench_silu_forward(unsigned long long y, unsigned long long x, long long n, int blocks, int threads);

// The name of a cudaError_t.
const char* jitbench_error_name(int code);

#ifdef __cplusplus
}
#endif

#endif  // RULES_CUDA_GO_OPS_CUDA_JIT_CMD_JITBENCH_AOT_H_
