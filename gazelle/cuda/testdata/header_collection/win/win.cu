#include <render_d3d.h>

int main() { return render_check(nullptr) ? 0 : 1; }
