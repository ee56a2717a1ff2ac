// Prints the machine it runs on: the cross toolchain's smoke test (tests/cross).
#include <sys/utsname.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

int main() {
  struct utsname u;
  uname(&u);
  std::vector<double> v{2.0, 9.0};
  std::string s = "sqrt(9) = " + std::to_string(std::sqrt(v[1]));
  std::printf("%s on %s\n", s.c_str(), u.machine);
  return 0;
}
