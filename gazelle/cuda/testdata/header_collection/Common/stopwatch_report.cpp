// No header of its own: it joins the rule of the first header of the directory it includes.
#include <cstdio>
#include "stopwatch.h"

void report(Stopwatch& s) { std::printf("%.3f ms\n", s.stop_ms()); }
