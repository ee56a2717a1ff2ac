#include "hdronly/vec.h"
#include "hostonly/device_info.h"
#include "plaincpp/strings.h"
#include "globbed/public.h"
#include "globbed/internal.h"
#include "globbed/sub/deep.h"
#include "globbed/extra.inc"
#include "globbed/nested/own.h"
#include "selected/sel.h"

__global__ void k(float2* v, float* out) { out[0] = dot2(v[0], v[1]); }
