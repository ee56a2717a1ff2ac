package cuda

import (
	"reflect"
	"testing"

	"github.com/bazelbuild/bazel-gazelle/config"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

func TestSubdirsUsedBy(t *testing.T) {
	f, err := rule.LoadData("ops/BUILD.bazel", "ops", []byte(`
cu_library(
    name = "kernels",
    srcs = ["csrc/a.cu", ":csrc/deep/b.cu", "//other:x.cu", "@r//:y.cu", "top.cu", "../up/z.cu"],
    hdrs = glob(["include/*.h", "gen/**/*.cuh"]),
)

cc_library(
    name = "lib",
    textual_hdrs = ["inc/t.inc"],
    deps = ["dep/not_a_file.h"],
)
`))
	if err != nil {
		t.Fatal(err)
	}
	dirs, trees := subdirsUsedBy(f, "ops")
	wantDirs := []string{"ops/csrc", "ops/csrc/deep", "ops/csrc", "ops/include", "ops/gen", "ops/inc"}
	if !reflect.DeepEqual(dirs, wantDirs) {
		t.Errorf("dirs = %q, want %q", dirs, wantDirs)
	}
	if want := []string{"ops/gen"}; !reflect.DeepEqual(trees, want) {
		t.Errorf("trees = %q, want %q", trees, want)
	}

	cc := newCudaConfig()
	cc.ownedDirs = addAll(nil, dirs)
	cc.ownedTrees = addAll(nil, trees)
	for rel, want := range map[string]bool{
		"ops/csrc":      true,
		"ops/csrc/deep": true,
		"ops/csrc/x":    false,
		"ops/gen":       true,
		"ops/gen/a/b":   true,
		"ops":           false,
		"other":         false,
	} {
		if got := cc.ownedByAncestor(rel); got != want {
			t.Errorf("ownedByAncestor(%q) = %v, want %v", rel, got, want)
		}
	}
	cc.ownedTrees = addAll(nil, []string{""})
	if !cc.ownedByAncestor("any/dir") {
		t.Error("a recursive glob of the root package owns every directory")
	}
}

func TestLocalName(t *testing.T) {
	for dep, want := range map[string]string{
		":k":         "k",
		"k":          "k",
		"//pkg:k":    "k",
		"//pkg":      "pkg",
		"//other:k":  "",
		"@r//pkg:k":  "",
		"sub/file.h": "",
	} {
		got, ok := localName(dep, "pkg")
		if ok != (want != "") || got != want {
			t.Errorf("localName(%q) = %q, %v; want %q", dep, got, ok, want)
		}
	}
}

func TestCompileDirectives(t *testing.T) {
	f, err := rule.LoadData("BUILD.bazel", "", []byte(`
# gazelle:cuda_define NCCL_OS_LINUX
# gazelle:cuda_define LEVEL=1 WIDE
# gazelle:cuda_define 9bad
# gazelle:cuda_copts --use_fast_math -DFAST "-Xcompiler -Wall"
# gazelle:cuda_program perf a.cu b.cu a.cu
# gazelle:cuda_program perf c.cu
# gazelle:cuda_program broken
# gazelle:cuda_program other sub/x.cu
`))
	if err != nil {
		t.Fatal(err)
	}
	c := config.New()
	(&cudaLang{}).Configure(c, "", f)
	cc := c.Exts[languageName].(*cudaConfig)
	if want := []string{"NCCL_OS_LINUX", "LEVEL=1", "WIDE"}; !reflect.DeepEqual(cc.compile.defines, want) {
		t.Errorf("defines = %q, want %q", cc.compile.defines, want)
	}
	if want := []string{"--use_fast_math", "-DFAST", "-Xcompiler -Wall"}; !reflect.DeepEqual(cc.compile.copts, want) {
		t.Errorf("copts = %q, want %q", cc.compile.copts, want)
	}
	if want := []string{"-DNCCL_OS_LINUX", "-DLEVEL=1", "-DWIDE", "-DFAST"}; !reflect.DeepEqual(cc.compile.flags(), want) {
		t.Errorf("flags = %q, want %q", cc.compile.flags(), want)
	}
	if want := []programDirective{{name: "perf", files: []string{"a.cu", "b.cu"}}}; !reflect.DeepEqual(cc.programs, want) {
		t.Errorf("programs = %+v, want %+v", cc.programs, want)
	}

	// A subdirectory inherits the flags, replaces a define by name and clears the copts; the
	// parent's lists stay as they were; programs are not inherited.
	sub, err := rule.LoadData("sub/BUILD.bazel", "sub", []byte("# gazelle:cuda_define LEVEL=2\n# gazelle:cuda_copts\n"))
	if err != nil {
		t.Fatal(err)
	}
	child := cc.clone()
	child.compile = child.compile.withDefine(sub, sub.Directives[0])
	child.compile = child.compile.withCopts(sub, sub.Directives[1])
	if want := []string{"NCCL_OS_LINUX", "LEVEL=2", "WIDE"}; !reflect.DeepEqual(child.compile.defines, want) {
		t.Errorf("child defines = %q, want %q", child.compile.defines, want)
	}
	if child.compile.copts != nil || child.programs != nil {
		t.Errorf("child copts = %q, programs = %+v, want none", child.compile.copts, child.programs)
	}
	if cc.compile.defines[1] != "LEVEL=1" {
		t.Errorf("the parent's defines changed: %q", cc.compile.defines)
	}
}
