// A registry that code adds itself to from a global's constructor, as op and plugin libraries do:
// nothing refers to such code by name, so only alwayslink (or a whole-archive link) links it.
#ifndef TESTS_PARITY_REGISTRY_H_
#define TESTS_PARITY_REGISTRY_H_

void parity_register(const char* name);

// Whether name was registered.
bool parity_registered(const char* name);

// How many names were registered.
int parity_count();

#endif  // TESTS_PARITY_REGISTRY_H_
