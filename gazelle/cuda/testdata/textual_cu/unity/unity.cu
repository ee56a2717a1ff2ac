#include "a.cu"
#ifdef UNITY_BUILD
#include "b.cu"
#endif
