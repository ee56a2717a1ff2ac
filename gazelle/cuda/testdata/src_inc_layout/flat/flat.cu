#include <flat.h>

int flat_answer() { return 42; }
