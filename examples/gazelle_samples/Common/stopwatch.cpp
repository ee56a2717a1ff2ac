#include "stopwatch.h"

#include <time.h>

static long long now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void Stopwatch::start() { start_ns_ = now_ns(); }

double Stopwatch::elapsed_ms() const { return (now_ns() - start_ns_) / 1e6; }
