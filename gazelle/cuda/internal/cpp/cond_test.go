package cpp

import (
	"testing"
)

func TestEvalCondition(t *testing.T) {
	m := Macros{}
	for _, d := range []string{"-DLEVEL=3", "-DALIAS=LEVEL", "-DSELF=SELF", "-DEMPTY=", "-DTWICE(x)=x*2", "-UNDEBUG", "-DHEX=0x10"} {
		m.DefineFlag(d[2:], d[1] == 'U')
	}
	has := func(inc Include) Tri {
		if inc.Path == "cuda_runtime.h" {
			return Yes
		}
		return No
	}
	for _, tc := range []struct {
		expr string
		want Tri
	}{
		{"0", No},
		{"1", Yes},
		{"defined(UNSET)", No},
		{"defined UNSET", No},
		{"!defined(UNSET)", Yes},
		{"UNSET", No},
		{"UNSET >= 2", No},
		{"defined(LEVEL) && LEVEL > 2", Yes},
		{"LEVEL == 3 && !defined(NDEBUG)", Yes},
		{"ALIAS * 2 == 6", Yes},
		{"HEX == 16 && 010 == 8 && 0b11 == 3 && 1'000 == 1000 && 10UL == 10", Yes},
		{"-1 < 0 && ~0 == -1 && 7 % 4 == 3 && (1 << 4) == 16 && (256 >> 4) == 16", Yes},
		{"(1 ? 2 : 3) == 2 && (0 ? 2 : 3) == 3", Yes},
		{"LEVEL >= 2 || (1 << 3) == 9", Yes},
		{"true && !false", Yes},
		{"defined(__linux__) && defined(__NVCC__) && !defined(_WIN32) && !defined(__APPLE__)", Yes},
		{"defined(__CUDACC__)", Maybe},
		{"_WIN32 || _MSC_VER", No},
		// Macros gazelle cannot know: unknown, unless && or || decide without them.
		{"CUDART_VERSION >= 12000", Maybe},
		{"defined(__CUDA_ARCH__)", Maybe},
		{"__CUDA_ARCH__ >= 800 || 1", Yes},
		{"0 && __CUDA_ARCH__ >= 800", No},
		{"__cplusplus >= 201703L", Maybe},
		{"defined(__GNUC__)", Yes},
		{"NDEBUG", No},
		// What the evaluator does not handle.
		{"TWICE(2) == 4", Maybe},
		{"SELF", Maybe},
		{"EMPTY", Maybe},
		{"'a' == 97", Maybe},
		{"1 / 0", Maybe},
		{"1 +", Maybe},
		{"(1", Maybe},
		{"defined", Maybe},
		{"__has_include(<cuda_runtime.h>)", Yes},
		{"__has_include(\"missing.h\")", No},
		{"!__has_include(<missing.h>) && 1", Yes},
		{"__has_include_next(<cuda_runtime.h>)", Maybe},
		{"__has_builtin(__builtin_expect)", Maybe},
	} {
		if got := EvalCondition(tc.expr, m, has); got != tc.want {
			t.Errorf("evalCondition(%q) = %v, want %v", tc.expr, got, tc.want)
		}
	}
}

func TestTri(t *testing.T) {
	for _, tc := range []struct{ a, b, And, Or Tri }{
		{Yes, Yes, Yes, Yes}, {Yes, Maybe, Maybe, Yes}, {Yes, No, No, Yes},
		{Maybe, Maybe, Maybe, Maybe}, {Maybe, No, No, Maybe}, {No, No, No, No},
	} {
		if got := tc.a.And(tc.b); got != tc.And {
			t.Errorf("%v and %v = %v, want %v", tc.a, tc.b, got, tc.And)
		}
		if got := tc.b.Or(tc.a); got != tc.Or {
			t.Errorf("%v or %v = %v, want %v", tc.b, tc.a, got, tc.Or)
		}
	}
	if Yes.Not() != No || No.Not() != Yes || Maybe.Not() != Maybe {
		t.Error("not is wrong")
	}
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
