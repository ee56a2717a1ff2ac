package cuda

import (
	"strings"

	bzl "github.com/bazelbuild/buildtools/build"

	"github.com/bazelbuild/bazel-gazelle/label"
	"github.com/bazelbuild/bazel-gazelle/rule"
)

// localFiles returns the entries of a srcs-like list that name files of the package itself
// ("a.cu", ":a.cu", "sub/a.cu"), without a leading ':'.
func localFiles(values []string) []string {
	var out []string
	for _, v := range values {
		if v == "" || strings.HasPrefix(v, "@") || strings.HasPrefix(v, "//") {
			continue
		}
		out = append(out, strings.TrimPrefix(v, ":"))
	}
	return out
}

// localName returns the target name of a label of the package rel (":x", "x", "//rel:x").
func localName(dep, rel string) (string, bool) {
	if strings.HasPrefix(dep, ":") {
		return dep[1:], true
	}
	if !strings.HasPrefix(dep, "//") && !strings.HasPrefix(dep, "@") {
		if strings.Contains(dep, "/") {
			return "", false
		}
		return dep, true
	}
	l, err := label.Parse(dep)
	if err != nil || l.Repo != "" || l.Pkg != rel {
		return "", false
	}
	return l.Name, true
}

// plainList reports whether r's attribute key is absent or a plain list of strings (no glob,
// select or concatenation), which is what gazelle can merge.
func plainList(r *rule.Rule, key string) bool {
	return r.Attr(key) == nil || r.AttrStrings(key) != nil
}

// handWritten reports whether r's srcs or hdrs is something gazelle does not merge (a glob, a
// select, a concatenation).
func handWritten(r *rule.Rule) bool {
	return !plainList(r, "srcs") || !plainList(r, "hdrs")
}

// isTrue reports whether e is the literal True.
func isTrue(e bzl.Expr) bool {
	id, ok := e.(*bzl.Ident)
	return ok && id.Name == "True"
}

// isFalse reports whether e is the literal False.
func isFalse(e bzl.Expr) bool {
	id, ok := e.(*bzl.Ident)
	return ok && id.Name == "False"
}
