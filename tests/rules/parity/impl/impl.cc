#include "tests/rules/parity/impl/impl.h"

int parity_impl_value() { return 7; }
