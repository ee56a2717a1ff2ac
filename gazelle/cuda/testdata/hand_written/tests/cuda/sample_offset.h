// Comes from the cc_library dep of tests/cuda:sample, to test header and define propagation.
#ifndef RULES_CUDA_GO_TESTS_CUDA_SAMPLE_OFFSET_H_
#define RULES_CUDA_GO_TESTS_CUDA_SAMPLE_OFFSET_H_
#ifndef SAMPLE_OFFSET_VALUE
#error "SAMPLE_OFFSET_VALUE must come from the defines of the cc_library dep"
#endif
#define SAMPLE_OFFSET ((float)SAMPLE_OFFSET_VALUE)
#endif
