package cpp

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Seeds of the fuzz tests: hand-written corner cases, and every header of the CUDA toolkit found
// in the directories of $CPP_FUZZ_SEEDS (colon-separated; unset: $CUDA_PATH/include and
// /usr/local/cuda/include, where they exist), e.g.
//
//	CPP_FUZZ_SEEDS=$(bazel info output_base)/external/+cuda+cuda_13_2_cudart/include \
//	    go test -fuzz=FuzzParseDirectives ./gazelle/cuda/internal/cpp
var cornerCases = []string{
	"", "#", "#include", "#include <", "#include \"a.h", "#include <a.h>\n#include \"b.h\"\n",
	"/* unterminated", "// line \\\n#include <x.h>\n", "R\"(raw", "R\"d(x)d\" #include <no.h>",
	"'\\'' #include <no.h>", "\"\\\"\" #include <no.h>", "#if defined(A) && (B + 1 > 2) || __has_include(<x.h>)\n#endif",
	"#if (((((((((((((1))))))))))))\n#endif", "#define F(x) F(x)\n#if F(1)\n#endif", "#if 1 ? 2 : 3 ? 4\n#endif",
	"#if 9223372036854775807 + 1\n#endif", "#if 1 / 0 || 1 % 0\n#endif", "#if -9223372036854775807 - 1 / -1\n#endif",
	"#if 0x\n#endif", "#if 1 << 99\n#endif", "__global__ void k() { k<<<1, 1>>>(); }", "int main() {}",
	"extern __device__ int x;", "__device__ void f(); __global__ void g() { f(); }", "\x00\xff#include <\x00>",
}

// seedFiles returns the toolkit headers to seed with.
func seedFiles(tb testing.TB) []string {
	dirs := os.Getenv("CPP_FUZZ_SEEDS")
	if dirs == "" {
		var ds []string
		if p := os.Getenv("CUDA_PATH"); p != "" {
			ds = append(ds, filepath.Join(p, "include"))
		}
		dirs = strings.Join(append(ds, "/usr/local/cuda/include"), ":")
	}
	var files []string
	for _, d := range filepath.SplitList(dirs) {
		_ = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() && (strings.HasSuffix(p, ".h") || strings.HasSuffix(p, ".hpp") || strings.HasSuffix(p, ".cuh") || filepath.Ext(p) == "") {
				files = append(files, p)
			}
			return nil
		})
	}
	tb.Logf("%d toolkit headers as seeds (CPP_FUZZ_SEEDS=%q)", len(files), dirs)
	return files
}

// addSeeds adds the corner cases and the toolkit's headers to f's corpus.
func addSeeds(f *testing.F) {
	for _, s := range cornerCases {
		f.Add([]byte(s))
	}
	for _, p := range seedFiles(f) {
		if b, err := os.ReadFile(p); err == nil && len(b) < 1<<20 {
			f.Add(b)
		}
	}
}

// bounded fails the test when fn took longer than a generous linear bound for n bytes.
func bounded(t *testing.T, what string, n int, fn func()) {
	t.Helper()
	start := time.Now()
	fn()
	if d, limit := time.Since(start), time.Second+time.Duration(n)*20*time.Microsecond; d > limit {
		t.Fatalf("%s of %d bytes took %v (more than %v)", what, n, d, limit)
	}
}

// FuzzParseDirectives: the directive parser, the include parser and the blanking helpers return
// for any bytes, without panicking, in bounded time, and agree with one another.
func FuzzParseDirectives(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		bounded(t, "ParseDirectives", len(src), func() {
			ds := ParseDirectives(src)
			incs := ParseIncludes(src)
			n := 0
			for _, d := range ds {
				if d.Included != nil {
					n++
				}
				if d.Line < 1 {
					t.Fatalf("directive %q at line %d", d.Name, d.Line)
				}
			}
			if n != len(incs) {
				t.Fatalf("%d include directives, ParseIncludes found %d", n, len(incs))
			}
			clean, starts := StripComments(src)
			lines := strings.Count(string(src), "\n") + 1
			if want := strings.Count(string(clean), "\n") + 1; len(starts) != want {
				t.Fatalf("StripComments: %d line starts for %d lines", len(starts), want)
			}
			for k, l := range starts {
				if l < 1 || l > lines || k > 0 && l < starts[k-1] {
					t.Fatalf("StripComments: line %d of clean starts at source line %d of %d (starts %v)", k, l, lines, starts)
				}
			}
			_ = BlankDirectives(src)
			_ = BlankLiterals(src)
		})
	})
}

// FuzzEvalCondition: every #if and #elif of a source evaluates, with the source's #defines in
// the table, without panicking and in bounded time.
func FuzzEvalCondition(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		bounded(t, "EvalCondition", len(src), func() {
			m := Macros{}
			has := func(Include) Tri { return Maybe }
			for _, d := range ParseDirectives(src) {
				switch d.Name {
				case "define":
					if name, value, function, ok := ParseDefine(d.Arg); ok {
						m.Define(name, value, function, Yes)
					}
				case "undef":
					m.Undef(FirstIdentifier(d.Arg), Yes)
				case "if", "elif":
					if v := EvalCondition(d.Arg, m, has); v < No || v > Yes {
						t.Fatalf("#%s %s: %d is not a Tri", d.Name, d.Arg, v)
					}
				}
			}
		})
	})
}

// FuzzScanSource: ScanSource returns for any bytes, without panicking, in bounded time, and the
// lines it reports are lines of the source.
func FuzzScanSource(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		bounded(t, "ScanSource", len(src), func() {
			facts := ScanSource(src)
			lines := strings.Count(string(src), "\n") + 1
			for _, l := range append(facts.DeviceLaunches, facts.ExternDevice...) {
				if l < 1 || l > lines {
					t.Fatalf("line %d of a %d-line source", l, lines)
				}
			}
		})
	})
}
