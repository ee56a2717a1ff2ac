package cuda

import (
	"reflect"
	"testing"

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
