package cuda

import (
	"reflect"
	"testing"

	"github.com/bazelbuild/bazel-gazelle/rule"
)

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

func TestGlobMatch(t *testing.T) {
	for _, tc := range []struct {
		pattern, name string
		want          bool
	}{
		{"*.h", "a.h", true},
		{"*.h", "sub/a.h", false},
		{"**/*.h", "a.h", true},
		{"**/*.h", "sub/deep/a.h", true},
		{"inc/**", "inc/x/y.cuh", true},
		{"inc/**", "src/a.h", false},
		{"inc/*.cuh", "inc/a.h", false},
	} {
		if got := matchAny([]string{tc.pattern}, tc.name); got != tc.want {
			t.Errorf("match(%q, %q) = %v, want %v", tc.pattern, tc.name, got, tc.want)
		}
	}
}

func TestCgoIncludes(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "line comments",
			src:  "package p\n\n// #cgo LDFLAGS: -lm\n// #include <stdlib.h>\n// #include \"pkg/kernel.h\"\nimport \"C\"\n",
			want: []string{"stdlib.h", "pkg/kernel.h"},
		},
		{
			name: "block comment",
			src:  "package p\n\n/*\n#include \"kernel.h\"\n// #include \"commented.h\"\n*/\nimport \"C\"\n",
			want: []string{"kernel.h"},
		},
		{
			name: "parenthesized import",
			src:  "package p\n\n// #include \"not_preamble.h\"\nimport (\n\t\"fmt\"\n\n\t// #include \"preamble.h\"\n\t\"C\"\n)\n\nvar _ = fmt.Sprint\n",
			want: []string{"preamble.h"},
		},
		{
			name: "comment separated by a blank line is not the preamble",
			src:  "package p\n\n// #include \"detached.h\"\n\nimport \"C\"\n",
			want: nil,
		},
		{
			name: "no cgo",
			src:  "package p\n\n// #include \"x.h\"\nimport \"fmt\"\n\nvar _ = fmt.Sprint\n",
			want: nil,
		},
		{
			name: "syntax error",
			src:  "package p\nimport \"C\" +\n",
			want: nil,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, inc := range cgoIncludes("x.go", []byte(tc.src)) {
				got = append(got, inc.Path)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("CgoIncludes\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
