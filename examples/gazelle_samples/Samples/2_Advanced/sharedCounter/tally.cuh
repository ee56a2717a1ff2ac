// A device-wide counter defined in tally.cu and used from other files.
#pragma once

extern __device__ unsigned int tally_total;
__device__ void tally_add(unsigned int k);
