#include "platform.h"
int host_name(char* buf, int n) { return gethostname(buf, n); }
