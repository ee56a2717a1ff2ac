#pragma once
#include <cstring>

inline bool has_flag(int argc, char** argv, const char* flag) {
  for (int i = 1; i < argc; i++) {
    if (std::strcmp(argv[i], flag) == 0) return true;
  }
  return false;
}
