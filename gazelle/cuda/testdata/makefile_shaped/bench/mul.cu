#include "common.h"

static float run_mul(int n) { return fill_and_sum(n, 2.0f) * 3.0f; }

BENCH_WEAK struct engine theEngine = {"mul", run_mul};
