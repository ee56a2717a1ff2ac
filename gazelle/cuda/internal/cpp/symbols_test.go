package cpp

import (
	"reflect"
	"testing"
)

func TestScanDefinitions(t *testing.T) {
	src := []byte(`#include "common.h"
#define WEAK __attribute__((weak))
static int hidden = 1;
const int limit = 4;
int counter;
extern int declared;
struct engine;
WEAK struct engine theEngine = {
  "add",
#if FAST
  fast_run,
#endif
};
__attribute__((weak)) float scale[4] = {1, 2, 3, 4};
std::map<int, float> cache;
__device__ float dev;
__constant__ float coeffs[8];
int helper(int x) { return x; }
static int local(int x) { return x; }
inline int inl(int x) { return x; }
template <typename T> T twice(T x) { return 2 * x; }
__global__ void kernel(float* x) { x[0] = 0; }
int prototype(int);
extern "C" int c_entry(int n) { return n; }
extern "C" {
int c_table[2];
}
namespace ns {
int in_ns = 3;
void f() {}
}
namespace {
int anon = 1;
void g() {}
}
struct S {
  int member;
  void method() {}
};
void S::outOfLine() {}
int main(int argc, char** argv) { return 0; }
std::ostream& operator<<(std::ostream& o, const S& s) { return o; }
#ifdef _WIN32
int platform_only() { return 1; }
#endif
`)
	var got []string
	for _, s := range ScanDefinitions(src) {
		e := s.Name
		if s.Function {
			e = s.Key
		}
		if s.Conditional {
			e += "?"
		}
		got = append(got, e)
	}
	want := []string{
		"counter", "theEngine", "scale", "cache", "helper(int x)", "kernel(float* x)", "c_entry(int n)",
		"c_table", "in_ns", "f()", "platform_only()?",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ScanDefinitions:\n got %q\nwant %q", got, want)
	}
}

func TestIdentifiers(t *testing.T) {
	ids := Identifiers([]byte("// theEngine in a comment\nconst char* s = \"other\";\nint x = theEngine.run(1);\n"))
	if !ids["theEngine"] || !ids["run"] || ids["other"] || ids["comment"] {
		t.Errorf("Identifiers = %v", ids)
	}
}
