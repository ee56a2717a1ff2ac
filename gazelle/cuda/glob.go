package cuda

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	bzl "github.com/bazelbuild/buildtools/build"

	"github.com/bazelbuild/bazel-gazelle/rule"
)

// attrFiles returns the files that attribute key of r names: the entries of a plain list, or of
// glob() calls (expanded against the package directory dir, as Bazel would: not into
// subdirectories that hold a build file) and of lists and globs joined with +. buildFiles are the
// names of build files. A select() or any other expression cannot be expanded: err says why.
func attrFiles(r *rule.Rule, key, dir string, buildFiles []string) ([]string, error) {
	expr := r.Attr(key)
	if expr == nil {
		return nil, nil
	}
	var out []string
	var eval func(e bzl.Expr) error
	eval = func(e bzl.Expr) error {
		switch e := e.(type) {
		case *bzl.ListExpr:
			for _, x := range e.List {
				s, ok := x.(*bzl.StringExpr)
				if !ok {
					return fmt.Errorf("%s lists a %s, not a string", key, describe(x))
				}
				out = append(out, s.Value)
			}
			return nil
		case *bzl.BinaryExpr:
			if e.Op != "+" {
				return fmt.Errorf("%s uses the operator %s", key, e.Op)
			}
			if err := eval(e.X); err != nil {
				return err
			}
			return eval(e.Y)
		case *bzl.CallExpr:
			if name, ok := e.X.(*bzl.Ident); ok && name.Name == "glob" {
				files, err := expandGlob(e, dir, buildFiles)
				if err != nil {
					return fmt.Errorf("%s: glob(): %w", key, err)
				}
				out = append(out, files...)
				return nil
			}
		}
		return fmt.Errorf("%s is a %s, which gazelle cannot evaluate", key, describe(e))
	}
	if err := eval(expr); err != nil {
		return nil, err
	}
	return out, nil
}

// describe names the kind of expression e, for error messages.
func describe(e bzl.Expr) string {
	switch e := e.(type) {
	case *bzl.CallExpr:
		if name, ok := e.X.(*bzl.Ident); ok {
			return name.Name + "()"
		}
		return "call"
	case *bzl.Ident:
		return "variable (" + e.Name + ")"
	}
	return fmt.Sprintf("%T", e)
}

// expandGlob evaluates a glob(include, exclude = [...]) call against the files under dir.
func expandGlob(call *bzl.CallExpr, dir string, buildFiles []string) ([]string, error) {
	var include, exclude []string
	for i, arg := range call.List {
		key, value := "", arg
		if a, ok := arg.(*bzl.AssignExpr); ok {
			if id, ok := a.LHS.(*bzl.Ident); ok {
				key = id.Name
			}
			value = a.RHS
		} else if i == 0 {
			key = "include"
		}
		switch key {
		case "include", "exclude":
			list, ok := value.(*bzl.ListExpr)
			if !ok {
				return nil, fmt.Errorf("%s is a %s, not a list", key, describe(value))
			}
			for _, x := range list.List {
				s, ok := x.(*bzl.StringExpr)
				if !ok {
					return nil, fmt.Errorf("%s lists a %s, not a string", key, describe(x))
				}
				if key == "include" {
					include = append(include, s.Value)
				} else {
					exclude = append(exclude, s.Value)
				}
			}
		case "exclude_directories", "allow_empty":
		default:
			return nil, fmt.Errorf("unexpected argument %q", key)
		}
	}
	isBuild := setOf(buildFiles...)
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && hasBuildFile(p, isBuild) {
				return filepath.SkipDir // another package
			}
			return nil
		}
		if matchAny(include, rel) && !matchAny(exclude, rel) {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", dir, err)
	}
	sort.Strings(out)
	return out, nil
}

// hasBuildFile reports whether directory dir holds a file named as isBuild says.
func hasBuildFile(dir string, isBuild map[string]bool) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.IsDir() && isBuild[e.Name()] {
			return true
		}
	}
	return false
}

// matchAny reports whether one of the glob patterns matches the slash-separated name.
func matchAny(patterns []string, name string) bool {
	for _, p := range patterns {
		if globMatch(strings.Split(p, "/"), strings.Split(name, "/")) {
			return true
		}
	}
	return false
}

// globMatch matches path segments against pattern segments: "**" matches any number of
// segments (none included), other segments match as path.Match does.
func globMatch(pattern, name []string) bool {
	if len(pattern) == 0 {
		return len(name) == 0
	}
	if pattern[0] == "**" {
		for k := 0; k <= len(name); k++ {
			if globMatch(pattern[1:], name[k:]) {
				return true
			}
		}
		return false
	}
	if len(name) == 0 {
		return false
	}
	if ok, err := path.Match(pattern[0], name[0]); err != nil || !ok {
		return false
	}
	return globMatch(pattern[1:], name[1:])
}
