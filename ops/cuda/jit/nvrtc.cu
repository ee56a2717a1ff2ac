// NVRTC behind ops/cuda/jit's C interface (nvrtc.h). Host code only: nvcc compiles it like a
// .cc helper of a cu_library, with the toolkit's nvrtc.h from @cuda//:nvrtc.
#include <nvrtc.h>
#include <stdlib.h>
#include <string.h>

#include "ops/cuda/jit/nvrtc.h"

namespace {

// Stores the program log in out->log when there is one.
void take_log(nvrtcProgram prog, jit_nvrtc_result* out) {
  size_t n = 0;
  if (nvrtcGetProgramLogSize(prog, &n) != NVRTC_SUCCESS || n <= 1) return;
  char* buf = static_cast<char*>(malloc(n));
  if (buf && nvrtcGetProgramLog(prog, buf) == NVRTC_SUCCESS) {
    out->log = buf;
  } else {
    free(buf);
  }
}

// Stores the lowered names of exprs, one after another, in out->lowered.
nvrtcResult take_lowered(nvrtcProgram prog, int nexprs, const char* const* exprs, jit_nvrtc_result* out) {
  size_t total = 0;
  for (int i = 0; i < nexprs; i++) {
    const char* low = nullptr;  // owned by prog
    nvrtcResult res = nvrtcGetLoweredName(prog, exprs[i], &low);
    if (res != NVRTC_SUCCESS) return res;
    total += strlen(low) + 1;
  }
  if (total == 0) return NVRTC_SUCCESS;
  char* buf = static_cast<char*>(malloc(total));
  if (!buf) return NVRTC_ERROR_OUT_OF_MEMORY;
  size_t at = 0;
  for (int i = 0; i < nexprs; i++) {
    const char* low = nullptr;
    nvrtcGetLoweredName(prog, exprs[i], &low);
    size_t n = strlen(low) + 1;
    memcpy(buf + at, low, n);
    at += n;
  }
  out->lowered = buf;
  out->lowered_len = total;
  return NVRTC_SUCCESS;
}

// Stores the CUBIN or PTX in out->code.
nvrtcResult take_code(nvrtcProgram prog, int cubin, jit_nvrtc_result* out) {
  size_t size = 0;
  nvrtcResult res = cubin ? nvrtcGetCUBINSize(prog, &size) : nvrtcGetPTXSize(prog, &size);
  if (res != NVRTC_SUCCESS) return res;
  char* buf = static_cast<char*>(malloc(size ? size : 1));
  if (!buf) return NVRTC_ERROR_OUT_OF_MEMORY;
  res = cubin ? nvrtcGetCUBIN(prog, buf) : nvrtcGetPTX(prog, buf);
  if (res != NVRTC_SUCCESS) {
    free(buf);
    return res;
  }
  out->code = buf;
  // The PTX size counts its terminating NUL; a CUBIN is binary.
  out->code_len = (!cubin && size > 0) ? size - 1 : size;
  return NVRTC_SUCCESS;
}

}  // namespace

extern "C" int jit_nvrtc_version(int* major, int* minor) { return static_cast<int>(nvrtcVersion(major, minor)); }

extern "C" int jit_nvrtc_supported_archs(int* archs, int cap, int* n) {
  int count = 0;
  nvrtcResult res = nvrtcGetNumSupportedArchs(&count);
  if (res != NVRTC_SUCCESS) return static_cast<int>(res);
  *n = count;
  if (count > cap) return static_cast<int>(NVRTC_ERROR_INVALID_INPUT);
  return static_cast<int>(nvrtcGetSupportedArchs(archs));
}

extern "C" const char* jit_nvrtc_error_string(int result) {
  return nvrtcGetErrorString(static_cast<nvrtcResult>(result));
}

extern "C" int jit_nvrtc_compile(const char* src, const char* name, int nheaders, const char* const* header_srcs,
                                 const char* const* header_names, int nopts, const char* const* opts, int nexprs,
                                 const char* const* exprs, int cubin, jit_nvrtc_result* out) {
  memset(out, 0, sizeof(*out));
  out->stage = JIT_STAGE_CREATE;
  if (!src || nheaders < 0 || nopts < 0 || nexprs < 0) return static_cast<int>(NVRTC_ERROR_INVALID_INPUT);
  nvrtcProgram prog;
  nvrtcResult res = nvrtcCreateProgram(&prog, src, name, nheaders, header_srcs, header_names);
  if (res != NVRTC_SUCCESS) return static_cast<int>(res);
  for (int i = 0; i < nexprs && res == NVRTC_SUCCESS; i++) {
    out->stage = JIT_STAGE_NAME_EXPR;
    res = nvrtcAddNameExpression(prog, exprs[i]);
  }
  if (res == NVRTC_SUCCESS) {
    out->stage = JIT_STAGE_COMPILE;
    res = nvrtcCompileProgram(prog, nopts, opts);
    take_log(prog, out);  // warnings on success, the errors on failure
  }
  if (res == NVRTC_SUCCESS) {
    out->stage = JIT_STAGE_LOWERED;
    res = take_lowered(prog, nexprs, exprs, out);
  }
  if (res == NVRTC_SUCCESS) {
    out->stage = JIT_STAGE_CODE;
    res = take_code(prog, cubin, out);
  }
  nvrtcDestroyProgram(&prog);
  return static_cast<int>(res);
}

extern "C" void jit_nvrtc_free(jit_nvrtc_result* r) {
  free(r->code);
  free(r->log);
  free(r->lowered);
  memset(r, 0, sizeof(*r));
}
