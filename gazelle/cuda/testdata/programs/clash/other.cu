extern "C" int shared();
int main() { return shared() + 1; }
