// A cc_test links its libraries dynamically where they have shared libraries: the cu_library
// with linkstatic = False must be one of the program's loaded objects, and work.
#include <link.h>

#include <cstdio>
#include <cstring>

#include "tests/parity/shared.h"

namespace {
int find(struct dl_phdr_info* info, size_t, void* found) {
  if (std::strstr(info->dlpi_name, "sharedcu") != nullptr) {
    std::printf("loaded: %s\n", info->dlpi_name);
    *static_cast<bool*>(found) = true;
  }
  return 0;
}
}  // namespace

int main() {
  bool found = false;
  dl_iterate_phdr(find, &found);
  if (!found) {
    std::fprintf(stderr, "no shared library of :sharedcu is loaded\n");
    return 1;
  }
  return parity_shared_value() == 42 ? 0 : 1;
}
