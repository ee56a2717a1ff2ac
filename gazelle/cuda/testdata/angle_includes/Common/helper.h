#pragma once
// Error-check helper shared by every tool of the repository.
#define CHECK(x) do { if ((x) != 0) return 1; } while (0)
