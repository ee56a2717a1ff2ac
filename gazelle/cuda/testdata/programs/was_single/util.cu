extern "C" void helper() {}
