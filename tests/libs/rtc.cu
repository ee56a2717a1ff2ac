// NVRTC through @cuda//:nvrtc: compiles CUDA C++ at run time to PTX or CUBIN (no GPU needed).
#include <nvrtc.h>
#include <stdlib.h>
#include <string.h>

#include "tests/libs/libs.h"

namespace {

char* copy_string(const char* s, size_t n) {
  char* out = (char*)malloc(n + 1);
  if (out) {
    memcpy(out, s, n);
    out[n] = '\0';
  }
  return out;
}

}  // namespace

extern "C" int libs_nvrtc_version(int* major, int* minor) { return (int)nvrtcVersion(major, minor); }

extern "C" int libs_nvrtc_compile(const char* src, const char* name, const char* const* opts, int nopts,
                                  const char* name_expr, int cubin, char** code, size_t* code_len, char** log,
                                  char** lowered, int* detail) {
  *code = nullptr;
  *code_len = 0;
  *log = nullptr;
  *lowered = nullptr;
  *detail = 0;
  if (!src || nopts < 0 || (nopts > 0 && !opts)) return LIBS_BAD_ARGS;

  nvrtcProgram prog;
  nvrtcResult res = nvrtcCreateProgram(&prog, src, name, 0, nullptr, nullptr);
  if (res != NVRTC_SUCCESS) {
    *detail = (int)res;
    return LIBS_NVRTC_ERROR;
  }
  if (name_expr) res = nvrtcAddNameExpression(prog, name_expr);
  nvrtcResult compiled = res;
  if (res == NVRTC_SUCCESS) compiled = res = nvrtcCompileProgram(prog, nopts, opts);

  // The log, whether compilation succeeded or not.
  size_t n = 0;
  if (nvrtcGetProgramLogSize(prog, &n) == NVRTC_SUCCESS && n > 1) {
    char* buf = (char*)malloc(n);
    if (buf && nvrtcGetProgramLog(prog, buf) == NVRTC_SUCCESS) {
      *log = buf;
    } else {
      free(buf);
    }
  }
  if (compiled == NVRTC_SUCCESS && name_expr) {
    const char* low = nullptr;
    res = nvrtcGetLoweredName(prog, name_expr, &low);  // owned by prog: copy it before destroying
    if (res == NVRTC_SUCCESS) *lowered = copy_string(low, strlen(low));
  }
  if (res == NVRTC_SUCCESS) {
    size_t size = 0;
    res = cubin ? nvrtcGetCUBINSize(prog, &size) : nvrtcGetPTXSize(prog, &size);
    char* buf = res == NVRTC_SUCCESS ? (char*)malloc(size ? size : 1) : nullptr;
    if (buf) {
      res = cubin ? nvrtcGetCUBIN(prog, buf) : nvrtcGetPTX(prog, buf);
      if (res == NVRTC_SUCCESS) {
        *code = buf;
        // The PTX size counts its terminating NUL; the CUBIN is binary.
        *code_len = (!cubin && size > 0) ? size - 1 : size;
      } else {
        free(buf);
      }
    }
  }
  nvrtcDestroyProgram(&prog);
  *detail = (int)res;
  return res == NVRTC_SUCCESS ? LIBS_OK : LIBS_NVRTC_ERROR;
}
