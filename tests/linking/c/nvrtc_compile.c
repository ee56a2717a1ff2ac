// Compiles a kernel to PTX with NVRTC (no GPU needed). NVRTC opens libnvrtc-builtins itself at
// run time: this starts and compiles only if the builtins sit beside libnvrtc.so.<major>, which is
// the one NVRTC library in NEEDED.
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>

static const char kSource[] = "extern \"C\" __global__ void twice(float* x) { x[threadIdx.x] *= 2.0f; }\n";

int main(void) {
  nvrtcProgram prog;
  nvrtcResult r = nvrtcCreateProgram(&prog, kSource, "twice.cu", 0, NULL, NULL);
  if (r != NVRTC_SUCCESS) {
    fprintf(stderr, "nvrtcCreateProgram: %s\n", nvrtcGetErrorString(r));
    return 1;
  }
  const char* opts[] = {"--gpu-architecture=compute_75"};
  r = nvrtcCompileProgram(prog, 1, opts);
  if (r != NVRTC_SUCCESS) {
    size_t n = 0;
    nvrtcGetProgramLogSize(prog, &n);
    char* log = (char*)malloc(n + 1);
    if (log && nvrtcGetProgramLog(prog, log) == NVRTC_SUCCESS) fprintf(stderr, "%s\n", log);
    free(log);
    fprintf(stderr, "nvrtcCompileProgram: %s\n", nvrtcGetErrorString(r));
    return 1;
  }
  size_t ptx = 0;
  nvrtcGetPTXSize(prog, &ptx);
  nvrtcDestroyProgram(&prog);
  int major = 0, minor = 0;
  nvrtcVersion(&major, &minor);
  printf("NVRTC %d.%d: %zu bytes of PTX\n", major, minor, ptx);
  return ptx > 0 ? 0 : 1;
}
