// Declares the function it times itself: it includes no header of the directory.
extern "C" int bench_warmup();

int main() { return bench_warmup(); }
