extern "C" int shared();
int main() { return shared(); }
