// Its main() is gone: a helper now.
extern "C" void helper() {}
