// Wall-clock timing for the samples; compiled from stopwatch.cpp.
#pragma once

class Stopwatch {
 public:
  void start();
  double elapsed_ms() const;

 private:
  long long start_ns_ = 0;
};
