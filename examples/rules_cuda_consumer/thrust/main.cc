extern "C" int thrust_main();

int main() { return thrust_main(); }
