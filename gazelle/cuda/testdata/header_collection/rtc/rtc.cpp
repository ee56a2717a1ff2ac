#include <helper_rtc.h>

int main() {
  nvrtcProgram p;
  return nvrtcCreateProgram(&p, "__global__ void k() {}", "k.cu", 0, nullptr, nullptr) == NVRTC_SUCCESS ? 0 : 1;
}
