#include "../other/pkg/x.cuh"
#include "app.h"
