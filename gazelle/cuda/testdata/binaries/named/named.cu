struct Options { int n; };
namespace {
int parse(Options* o) { o->n = 1; return 0; }
}  // namespace
int main() { Options o; return parse(&o); }
