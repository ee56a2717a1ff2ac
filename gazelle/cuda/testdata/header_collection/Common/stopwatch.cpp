#include "stopwatch.h"

#include <time.h>

static long long now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void Stopwatch::start() { t0 = now_ns(); }
double Stopwatch::stop_ms() { return (now_ns() - t0) / 1e6; }
