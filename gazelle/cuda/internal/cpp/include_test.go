package cpp

import (
	"reflect"
	"testing"
)

func TestParseIncludes(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		want []Include
	}{
		{
			name: "quoted and angle",
			src:  "#include \"a/b.h\"\n#include <cuda_runtime.h>\n",
			want: []Include{{Path: "a/b.h", Quoted: true, Line: 1}, {Path: "cuda_runtime.h", Line: 2}},
		},
		{
			name: "spaces and tabs around # and include",
			src:  "  #  include   \"x.cuh\"\n\t#\tinclude\t<y.h>\n# include\"z.h\"\n",
			want: []Include{{Path: "x.cuh", Quoted: true, Line: 1}, {Path: "y.h", Line: 2}, {Path: "z.h", Quoted: true, Line: 3}},
		},
		{
			name: "line comments",
			src:  "// #include \"commented.h\"\n#include \"real.h\" // trailing \"comment.h\"\n",
			want: []Include{{Path: "real.h", Quoted: true, Line: 2}},
		},
		{
			name: "block comments",
			src: "/* #include \"one.h\"\n#include \"two.h\"\n*/ #include \"three.h\"\n" +
				"/* a */ #include \"four.h\" /* b */\n#include /* c */ \"five.h\"\n",
			// The comment spanning lines 1-3 is one space: "three.h" starts line 1 (as for cpp).
			want: []Include{{Path: "three.h", Quoted: true, Line: 1}, {Path: "four.h", Quoted: true, Line: 4}, {Path: "five.h", Quoted: true, Line: 5}},
		},
		{
			name: "block comment joining a code line",
			src:  "int x; /* spans\n lines */ #include \"joined.h\"\n#include \"next.h\"\n",
			want: []Include{{Path: "next.h", Quoted: true, Line: 3}},
		},
		{
			name: "comment markers inside the path",
			src:  "#include \"weird//name.h\"\n#include \"a/*b*/.h\"\n",
			want: []Include{{Path: "weird//name.h", Quoted: true, Line: 1}, {Path: "a/*b*/.h", Quoted: true, Line: 2}},
		},
		{
			name: "strings are not comments or directives",
			src:  "const char* s = \"/* not a comment\";\n#include \"after_string.h\"\nconst char* t = \"#include \\\"no.h\\\"\";\n",
			want: []Include{{Path: "after_string.h", Quoted: true, Line: 2}},
		},
		{
			name: "char literal quote and digit separator",
			src:  "char q = '\"'; int n = 1'000;\n#include \"ok.h\"\n",
			want: []Include{{Path: "ok.h", Quoted: true, Line: 2}},
		},
		{
			name: "raw string",
			src:  "auto s = R\"x(\n#include \"inside_raw.h\" /* \n)x\";\n#include \"outside.h\"\n",
			want: []Include{{Path: "outside.h", Quoted: true, Line: 4}},
		},
		{
			name: "line continuation",
			src:  "#include \\\n  \"continued.h\"\n// comment \\\n#include \"in_continued_comment.h\"\n#include \"last.h\"",
			want: []Include{{Path: "continued.h", Quoted: true, Line: 1}, {Path: "last.h", Quoted: true, Line: 5}},
		},
		{
			name: "not includes",
			src:  "#include_next <stdio.h>\n#import \"objc.h\"\n#include MACRO_HEADER\n#define include \"x.h\"\n#include \"\"\n#include \"unterminated.h\n int x; #include \"mid_line.h\"\n",
			want: nil,
		},
		{
			name: "CRLF",
			src:  "#include \"a.h\"\r\n#include <b.h>\r\n",
			want: []Include{{Path: "a.h", Quoted: true, Line: 1}, {Path: "b.h", Line: 2}},
		},
		{
			name: "conditional compilation is not evaluated",
			src:  "#if 0\n#include \"disabled.h\"\n#endif\n",
			want: []Include{{Path: "disabled.h", Quoted: true, Line: 2}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ParseIncludes([]byte(tc.src))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseIncludes(%q)\n got %+v\nwant %+v", tc.src, got, tc.want)
			}
		})
	}
}
