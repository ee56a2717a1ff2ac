// Exits 0 when EXPECTED names are registered: 1 with the plugin library linked alwayslink, 0
// without (the control: the plugin's archive member is not linked, so the test above cannot pass
// by accident).
#include <cstdio>

#include "tests/parity/registry.h"

int main() {
  int n = parity_count();
  std::printf("%d registered, expected %d\n", n, EXPECTED);
  return n == EXPECTED && (n == 0 || parity_registered("plugin")) ? 0 : 1;
}
