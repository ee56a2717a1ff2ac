extern "C" int shared() { return 0; }
