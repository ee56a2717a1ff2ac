#pragma once
#include <string>
std::string upper(std::string s);
