extern "C" int rdc_main();

int main() { return rdc_main(); }
