package cuda

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bazelbuild/bazel-gazelle/rule"
)

// wireGo makes the directory's Go library a go_cuda_library whose cu_deps lists each of libs (the
// directory's library, or the rules of a header collection) whose headers its cgo preamble
// includes. cu_deps entries naming other rules are kept, except those naming cu_library rules of
// this directory that are gone or being deleted. A Go library that is a go_cuda_library already
// stays one.
func wireGo(d *dirInput, libs []*rule.Rule, deleted map[string]bool) {
	if m, ok := d.c.KindMap["go_library"]; ok && m.KindName != goCudaLibraryKind {
		return // the user maps go_library to a macro of their own
	}
	var goLib *rule.Rule
	for _, r := range d.otherGen {
		if r.Kind() == "go_library" {
			goLib = r
			break
		}
	}
	if goLib == nil {
		return
	}
	var old *rule.Rule
	for _, r := range d.rules() {
		if d.isGoLibrary(r) && r.Name() == goLib.Name() {
			old = r
			break
		}
	}
	if old == nil {
		for _, r := range d.rules() {
			if d.isGoLibrary(r) && r.AttrString("importpath") != "" && r.AttrString("importpath") == goLib.AttrString("importpath") {
				old = r
				break
			}
		}
	}
	if old != nil && (old.ShouldKeep() || !plainList(old, "cu_deps")) {
		return
	}
	var wired []string
	generated := map[string]bool{}
	for _, lib := range libs {
		generated[lib.Name()] = true
		if cgoIncludesHeaderOf(d, goLib, lib) {
			wired = append(wired, ":"+lib.Name())
		}
	}
	if len(wired) == 0 && (old == nil || old.Kind() != goCudaLibraryKind) {
		return
	}

	existing := map[string]bool{}
	for _, r := range d.rules() {
		existing[r.Name()] = true
	}
	var cuDeps []string
	seen := map[string]bool{}
	if old != nil {
		for _, dep := range old.AttrStrings("cu_deps") {
			if n, ok := localName(dep, d.rel); ok {
				if generated[n] || deleted[n] || !existing[n] {
					continue
				}
			}
			if !seen[dep] {
				seen[dep] = true
				cuDeps = append(cuDeps, dep)
			}
		}
	}
	cuDeps = append(cuDeps, wired...)
	goLib.SetKind(goCudaLibraryKind)
	goLib.SetSortedAttrs(append(goLib.SortedAttrs(), "cu_deps"))
	if len(cuDeps) > 0 {
		goLib.SetAttr("cu_deps", cuDeps)
	}
}

// cgoIncludesHeaderOf reports whether a cgo preamble of goLib's Go files includes a header of
// lib, by its workspace-relative path or relative to the directory.
func cgoIncludesHeaderOf(d *dirInput, goLib, lib *rule.Rule) bool {
	own := map[string]bool{}
	for _, key := range []string{"srcs", "hdrs"} {
		for _, f := range lib.AttrStrings(key) {
			if headerExts[path.Ext(f)] {
				own[path.Join(d.rel, f)] = true
			}
		}
	}
	goFiles := goLib.AttrStrings("srcs")
	if goFiles == nil {
		goFiles = d.regularFiles
	}
	for _, f := range goFiles {
		if !strings.HasSuffix(f, ".go") || strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(d.dir, filepath.FromSlash(f)))
		if err != nil {
			continue
		}
		for _, inc := range cgoIncludes(f, src) {
			if own[path.Clean(inc.Path)] || own[path.Join(d.rel, inc.Path)] {
				return true
			}
		}
	}
	return false
}
