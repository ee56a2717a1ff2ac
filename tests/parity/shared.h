#ifndef TESTS_PARITY_SHARED_H_
#define TESTS_PARITY_SHARED_H_

int parity_shared_value();

#endif  // TESTS_PARITY_SHARED_H_
