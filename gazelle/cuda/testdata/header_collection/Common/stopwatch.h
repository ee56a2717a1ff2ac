#pragma once

struct Stopwatch {
  void start();
  double stop_ms();
  long long t0 = 0;
};
