#include "assert.h"
#include "string.h"
#include "cmath"
#include <vector>
#include <sys/time.h>
#include <unistd.h>
#include <omp.h>
#include <immintrin.h>
#include <linux/limits.h>
#include <d3d11.h>
#include <mpi.h>
#include "helper_missing.h"
#include "gl_view.h"

int main() { return 0; }
