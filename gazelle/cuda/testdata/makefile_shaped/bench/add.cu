#include "common.h"

static float run_add(int n) { return fill_and_sum(n, 1.0f) + fill_and_sum(n, 2.0f); }

BENCH_WEAK struct engine theEngine = {
  "add",
  run_add,
};
