// Launch-shape arithmetic shared by the samples.
#pragma once

inline unsigned int blocks_for(unsigned int n, unsigned int threads) {
  return (n + threads - 1) / threads;
}
