#pragma once
inline int round_up(int n, int m) { return (n + m - 1) / m * m; }
