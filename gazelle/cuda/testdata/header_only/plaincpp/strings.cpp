#include "plaincpp/strings.h"
#include <cctype>
std::string upper(std::string s) { for (auto& c : s) c = std::toupper(c); return s; }
