extern "C" void helper();
int main() { helper(); return 0; }
