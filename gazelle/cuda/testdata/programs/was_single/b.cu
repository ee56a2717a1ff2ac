// Got a main() of its own since the last run.
extern "C" void helper();
int main() { helper(); return 1; }
