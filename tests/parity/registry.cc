#include "tests/parity/registry.h"

#include <cstring>

namespace {
const char* names[16];
int count = 0;
}  // namespace

void parity_register(const char* name) {
  if (count < 16) names[count++] = name;
}

bool parity_registered(const char* name) {
  for (int i = 0; i < count; i++) {
    if (std::strcmp(names[i], name) == 0) return true;
  }
  return false;
}

int parity_count() { return count; }
