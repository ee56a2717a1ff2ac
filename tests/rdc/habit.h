#ifndef TESTS_RDC_HABIT_H_
#define TESTS_RDC_HABIT_H_

#ifdef __cplusplus
extern "C" {
#endif

// data[i] = twice(data[i]) on the GPU, twice from another rdc library. Returns a cudaError_t.
int rdc_habit(float* data, int n);
// cudaGetDeviceCount. Returns a cudaError_t.
int rdc_habit_device_count(int* count);
// Sets the factor of twice (in the twice library, through its own host code). Returns a cudaError_t.
int set_twice_factor(float factor);

#ifdef __cplusplus
}
#endif

#endif  // TESTS_RDC_HABIT_H_
