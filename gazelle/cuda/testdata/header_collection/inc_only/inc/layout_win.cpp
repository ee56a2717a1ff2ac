#include <windows.h>
#include "layout.h"

Layout window_layout() { return Layout{GetSystemMetrics(0), GetSystemMetrics(1)}; }
