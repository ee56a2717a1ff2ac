// C interface of the kernel, for cgo.
#ifndef K_H_
#define K_H_
#ifdef __cplusplus
extern "C" {
#endif
int k_run(float* x, long long n);
#ifdef __cplusplus
}
#endif
#endif
