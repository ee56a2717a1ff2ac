#pragma once
inline double seconds_between(long a, long b) { return (b - a) * 1e-9; }
