// C interface of ops/cuda/jit: a thin wrapper around NVRTC (the toolkit's libnvrtc, linked through
// @cuda//:nvrtc) that package jit calls through cgo. It needs no GPU and no driver. This header
// includes no toolkit header, so the Go side compiles without the toolkit's include path.
#ifndef RULES_CUDA_GO_OPS_CUDA_JIT_NVRTC_H_
#define RULES_CUDA_GO_OPS_CUDA_JIT_NVRTC_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// Which NVRTC call a failure came from (jit_nvrtc_result.stage).
enum {
  JIT_STAGE_CREATE = 0,     // nvrtcCreateProgram
  JIT_STAGE_NAME_EXPR = 1,  // nvrtcAddNameExpression
  JIT_STAGE_COMPILE = 2,    // nvrtcCompileProgram (NVRTC_ERROR_COMPILATION: see the log)
  JIT_STAGE_LOWERED = 3,    // nvrtcGetLoweredName
  JIT_STAGE_CODE = 4,       // nvrtcGetCUBIN / nvrtcGetPTX
  JIT_STAGE_ALLOC = 5,      // out of host memory
};

// What jit_nvrtc_compile returns besides its status; every pointer is malloc'ed (or NULL) and
// released with jit_nvrtc_free.
typedef struct {
  char* code;          // the CUBIN (binary) or the PTX (text, without its terminating NUL)
  size_t code_len;
  char* log;           // the program log (NUL-terminated), or NULL when empty
  char* lowered;       // the lowered names of the name expressions, in order, each NUL-terminated
  size_t lowered_len;  // bytes in lowered, terminators included
  int stage;           // JIT_STAGE_* of the call that failed (meaningful when the status is not 0)
} jit_nvrtc_result;

// nvrtcVersion; returns the nvrtcResult.
int jit_nvrtc_version(int* major, int* minor);

// The archs NVRTC can compile for (e.g. 75, 80, ..., 121): at most cap of them into archs, their
// count into *n. Returns the nvrtcResult.
int jit_nvrtc_supported_archs(int* archs, int cap, int* n);

// The name of an nvrtcResult ("NVRTC_ERROR_COMPILATION").
const char* jit_nvrtc_error_string(int result);

// Compiles src (named name in messages) with nheaders in-memory headers (header_srcs[i] is included
// as header_names[i]), nopts options, and nexprs name expressions (whose lowered names come back in
// out->lowered), to a CUBIN when cubin is non-zero, else to PTX. Returns the nvrtcResult of the
// first call that failed (out->stage says which), or 0.
int jit_nvrtc_compile(const char* src, const char* name, int nheaders, const char* const* header_srcs,
                      const char* const* header_names, int nopts, const char* const* opts, int nexprs,
                      const char* const* exprs, int cubin, jit_nvrtc_result* out);

// Frees what jit_nvrtc_compile allocated in r and clears it.
void jit_nvrtc_free(jit_nvrtc_result* r);

#ifdef __cplusplus
}
#endif

#endif  // RULES_CUDA_GO_OPS_CUDA_JIT_NVRTC_H_
