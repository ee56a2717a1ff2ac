#include "plaincc/a.h"
int a() { return 1; }
