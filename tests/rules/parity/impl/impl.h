// A header of an implementation dependency: visible to its user's compiles only.
#pragma once
int parity_impl_value();
