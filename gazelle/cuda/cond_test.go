package cuda

import (
	"testing"

	"github.com/bazelbuild/bazel-gazelle/rule"
)

func TestEvalCondition(t *testing.T) {
	m := macros{}
	for _, d := range []string{"-DLEVEL=3", "-DALIAS=LEVEL", "-DSELF=SELF", "-DEMPTY=", "-DTWICE(x)=x*2", "-UNDEBUG", "-DHEX=0x10"} {
		m.defineFlag(d[2:], d[1] == 'U')
	}
	has := func(inc Include) tri {
		if inc.Path == "cuda_runtime.h" {
			return yes
		}
		return no
	}
	for _, tc := range []struct {
		expr string
		want tri
	}{
		{"0", no},
		{"1", yes},
		{"defined(UNSET)", no},
		{"defined UNSET", no},
		{"!defined(UNSET)", yes},
		{"UNSET", no},
		{"UNSET >= 2", no},
		{"defined(LEVEL) && LEVEL > 2", yes},
		{"LEVEL == 3 && !defined(NDEBUG)", yes},
		{"ALIAS * 2 == 6", yes},
		{"HEX == 16 && 010 == 8 && 0b11 == 3 && 1'000 == 1000 && 10UL == 10", yes},
		{"-1 < 0 && ~0 == -1 && 7 % 4 == 3 && (1 << 4) == 16 && (256 >> 4) == 16", yes},
		{"(1 ? 2 : 3) == 2 && (0 ? 2 : 3) == 3", yes},
		{"LEVEL >= 2 || (1 << 3) == 9", yes},
		{"true && !false", yes},
		{"defined(__linux__) && defined(__NVCC__) && !defined(_WIN32) && !defined(__APPLE__)", yes},
		{"defined(__CUDACC__)", maybe}, // set per file by preprocessor.unit
		{"_WIN32 || _MSC_VER", no},
		// Macros gazelle cannot know: unknown, unless && or || decide without them.
		{"CUDART_VERSION >= 12000", maybe},
		{"defined(__CUDA_ARCH__)", maybe},
		{"__CUDA_ARCH__ >= 800 || 1", yes},
		{"0 && __CUDA_ARCH__ >= 800", no},
		{"__cplusplus >= 201703L", maybe},
		{"defined(__GNUC__)", yes},
		{"NDEBUG", no},
		// What the evaluator does not handle.
		{"TWICE(2) == 4", maybe},
		{"SELF", maybe},
		{"EMPTY", maybe},
		{"'a' == 97", maybe},
		{"1 / 0", maybe},
		{"1 +", maybe},
		{"(1", maybe},
		{"defined", maybe},
		{"__has_include(<cuda_runtime.h>)", yes},
		{"__has_include(\"missing.h\")", no},
		{"!__has_include(<missing.h>) && 1", yes},
		{"__has_include_next(<cuda_runtime.h>)", maybe},
		{"__has_builtin(__builtin_expect)", maybe},
	} {
		if got := evalCondition(tc.expr, m, has); got != tc.want {
			t.Errorf("evalCondition(%q) = %v, want %v", tc.expr, got, tc.want)
		}
	}
}

func TestTri(t *testing.T) {
	for _, tc := range []struct{ a, b, and, or tri }{
		{yes, yes, yes, yes}, {yes, maybe, maybe, yes}, {yes, no, no, yes},
		{maybe, maybe, maybe, maybe}, {maybe, no, no, maybe}, {no, no, no, no},
	} {
		if got := tc.a.and(tc.b); got != tc.and {
			t.Errorf("%v and %v = %v, want %v", tc.a, tc.b, got, tc.and)
		}
		if got := tc.b.or(tc.a); got != tc.or {
			t.Errorf("%v or %v = %v, want %v", tc.b, tc.a, got, tc.or)
		}
	}
	if yes.not() != no || no.not() != yes || maybe.not() != maybe {
		t.Error("not is wrong")
	}
}

func TestRuleDefines(t *testing.T) {
	r := newRule(t, `cu_library(
    name = "x",
    defines = ["A", "B=2"],
    local_defines = ["C"],
    copts = ["-DD=4", "-O2", "-D", "E", "-UF", "-U"],
    host_copts = ["-DG"],
)`)
	got := ruleDefines(r)
	want := []string{"-DA", "-DB=2", "-DC", "-DD=4", "-DE", "-UF", "-DG"}
	if len(got) != len(want) {
		t.Fatalf("ruleDefines = %q, want %q", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("ruleDefines = %q, want %q", got, want)
		}
	}
}

// newRule parses one rule from build file text.
func newRule(t *testing.T, text string) *rule.Rule {
	t.Helper()
	f, err := rule.LoadData("BUILD.bazel", "", []byte(text))
	if err != nil || len(f.Rules) != 1 {
		t.Fatalf("parsing %q: %v", text, err)
	}
	return f.Rules[0]
}

func TestSystemHeader(t *testing.T) {
	for _, h := range []string{"assert.h", "string.h", "vector", "cmath", "sys/time.h", "unistd.h", "pthread.h", "omp.h", "immintrin.h", "linux/limits.h", "bits/stdc++.h", "net/if.h"} {
		if !SystemHeader(h) {
			t.Errorf("SystemHeader(%q) = false, want true", h)
		}
	}
	for _, h := range []string{"d3d11.h", "windows.h", "mpi.h", "GL/glew.h", "helper_cuda.h", "cuda_runtime.h", "net/other.h", "vector.h"} {
		if SystemHeader(h) {
			t.Errorf("SystemHeader(%q) = true, want false", h)
		}
	}
}
